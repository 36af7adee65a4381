#include <libxml/xmlversion.h>
// libxml2 is built with ICU here; its ICU headers clash with the copy inside Foundation.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
