/* libpq, PostgreSQL's client library, as Debian's libpq-dev installs it
   (/usr/include/postgresql/libpq-fe.h; its own includes are relative to it). */
#include <postgresql/libpq-fe.h>
