/* libpq opened when the PostgreSQL store is first used, not when graphimport starts: a run
   into a SQLite file never loads libpq and the libraries it brings. */
#ifndef CLIBPQ_LOADER_H
#define CLIBPQ_LOADER_H

/* Opens libpq once (later calls return the first answer): 1 when it is loaded, else 0 with
   `*error` set to the loader's message (static storage, never to be freed). */
int clibpq_load(const char **error);

#endif
