#include <sqlite3.h>

/* Swift cannot call C variadic functions nor import function-pointer macros,
   so the few SQLite entry points that need them are wrapped here. */

/* Turns off double-quoted string literals in DML and DDL, so `"name"` is always
   an identifier and a typo'd column name fails instead of becoming a string.
   The corresponding C calls are sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML/DDL, 0, NULL). */
static inline int graphimport_disable_double_quoted_strings(sqlite3 *db) {
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (code != SQLITE_OK) return code;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}

/* Turns off SQLite's memory statistics, which take a global mutex on every allocation and
   free; graphimport never reads them. Must come before SQLite initializes (the first open),
   else it is refused with SQLITE_MISUSE and nothing changes, which is harmless. */
static inline int graphimport_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* Binds UTF-8 text that SQLite copies (SQLITE_TRANSIENT), so the caller's buffer
   only has to live for the duration of the call. */
static inline int graphimport_bind_text(sqlite3_stmt *statement, int index, const char *bytes, sqlite3_uint64 length) {
    return sqlite3_bind_text64(statement, index, bytes, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* Binds a blob that SQLite copies (SQLITE_TRANSIENT). */
static inline int graphimport_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 length) {
    return sqlite3_bind_blob64(statement, index, bytes, length, SQLITE_TRANSIENT);
}
