/* For the trampolines: each libpq function looked up once, on its first call. */
#ifndef LIBPQ_LOADER_PRIVATE_H
#define LIBPQ_LOADER_PRIVATE_H

#include <postgresql/libpq-fe.h>

#include "clibpq_loader.h"

/* The address of libpq's function `name`; stops the process with a message when libpq cannot be
   loaded or lacks it (the callers check `clibpq_load` first, so this is a build mismatch). */
void *clibpq_symbol(const char *name);

#define CLIBPQ_FUNCTION(name)                                                   \
    (*({                                                                       \
        static void *slot;                                                     \
        void *found = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);                 \
        if (!found) {                                                          \
            found = clibpq_symbol(#name);                                      \
            __atomic_store_n(&slot, found, __ATOMIC_RELEASE);                  \
        }                                                                      \
        (__typeof__(&name))found;                                              \
    }))

#endif
