import Foundation
import MapFrameCLI

exit(await MapFrameCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
