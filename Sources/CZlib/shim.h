// The system zlib, for the viewer's compressed page data.
#include <zlib.h>
