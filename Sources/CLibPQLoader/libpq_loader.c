#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "libpq_loader.h"

/* Debian's libpq5 (a dependency of libpq-dev) installs the library under its soname. */
static const char *const library = "libpq.so.5";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *handle;
static const char *failure;
static char message[512];

static void open_library(void) {
    handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(message, sizeof message, "%s", reason ? reason : "libpq.so.5 could not be loaded");
        failure = message;
    }
}

int clibpq_load(const char **error) {
    pthread_once(&once, open_library);
    if (handle) return 1;
    if (error) *error = failure;
    return 0;
}

void *clibpq_symbol(const char *name) {
    const char *error = NULL;
    if (!clibpq_load(&error)) {
        fprintf(stderr, "graphimport: error: libpq is needed for a PostgreSQL store: %s\n", error);
        abort();
    }
    void *found = dlsym(handle, name);
    if (!found) {
        fprintf(stderr, "graphimport: error: the libpq installed (%s) lacks %s\n", library, name);
        abort();
    }
    return found;
}
