/* libpq, PostgreSQL's client library, as Debian's libpq-dev installs it
   (/usr/include/postgresql/libpq-fe.h; its own includes are relative to it). Only its
   declarations: the module links no library, since CLibPQLoader opens libpq on first use. */
#include <postgresql/libpq-fe.h>
