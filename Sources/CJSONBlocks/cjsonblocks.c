#include "cjsonblocks.h"

int graphimport_json_blocks_available(void) {
#if defined(__SSE2__)
    return 1;
#else
    return 0;
#endif
}
