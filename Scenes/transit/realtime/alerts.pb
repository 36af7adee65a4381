

2.0ğĞ¯d
alert-60*X
ĞØÏ¯ªÒ¯*R60RA
?
9Bus 60 diverted via Mill Road: roadworks on Regent Streeten7
alert-99*+*R99R"
 
Line 99 does not run todayenC
	alert-old*6
ğíÊ¯àôÏ¯*R7R 

Tram 7 replaced by busesen