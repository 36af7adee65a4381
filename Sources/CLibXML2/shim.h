#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
