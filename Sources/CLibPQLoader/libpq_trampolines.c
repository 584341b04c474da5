/* Written by make-trampolines.py from libpq-fe.h: do not edit by hand. */
#include "libpq_loader.h"

PGconn * PQconnectStart(const char *conninfo) { return CLIBPQ_FUNCTION(PQconnectStart)(conninfo); }
PGconn * PQconnectStartParams(const char *const *keywords, const char *const *values, int expand_dbname) { return CLIBPQ_FUNCTION(PQconnectStartParams)(keywords, values, expand_dbname); }
PostgresPollingStatusType PQconnectPoll(PGconn *conn) { return CLIBPQ_FUNCTION(PQconnectPoll)(conn); }
PGconn * PQconnectdb(const char *conninfo) { return CLIBPQ_FUNCTION(PQconnectdb)(conninfo); }
PGconn * PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) { return CLIBPQ_FUNCTION(PQconnectdbParams)(keywords, values, expand_dbname); }
PGconn * PQsetdbLogin(const char *pghost, const char *pgport, const char *pgoptions, const char *pgtty, const char *dbName, const char *login, const char *pwd) { return CLIBPQ_FUNCTION(PQsetdbLogin)(pghost, pgport, pgoptions, pgtty, dbName, login, pwd); }
void PQfinish(PGconn *conn) { CLIBPQ_FUNCTION(PQfinish)(conn); }
PQconninfoOption * PQconndefaults(void) { return CLIBPQ_FUNCTION(PQconndefaults)(); }
PQconninfoOption * PQconninfoParse(const char *conninfo, char **errmsg) { return CLIBPQ_FUNCTION(PQconninfoParse)(conninfo, errmsg); }
PQconninfoOption * PQconninfo(PGconn *conn) { return CLIBPQ_FUNCTION(PQconninfo)(conn); }
void PQconninfoFree(PQconninfoOption *connOptions) { CLIBPQ_FUNCTION(PQconninfoFree)(connOptions); }
int PQresetStart(PGconn *conn) { return CLIBPQ_FUNCTION(PQresetStart)(conn); }
PostgresPollingStatusType PQresetPoll(PGconn *conn) { return CLIBPQ_FUNCTION(PQresetPoll)(conn); }
void PQreset(PGconn *conn) { CLIBPQ_FUNCTION(PQreset)(conn); }
PGcancel * PQgetCancel(PGconn *conn) { return CLIBPQ_FUNCTION(PQgetCancel)(conn); }
void PQfreeCancel(PGcancel *cancel) { CLIBPQ_FUNCTION(PQfreeCancel)(cancel); }
int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize) { return CLIBPQ_FUNCTION(PQcancel)(cancel, errbuf, errbufsize); }
int PQrequestCancel(PGconn *conn) { return CLIBPQ_FUNCTION(PQrequestCancel)(conn); }
char * PQdb(const PGconn *conn) { return CLIBPQ_FUNCTION(PQdb)(conn); }
char * PQuser(const PGconn *conn) { return CLIBPQ_FUNCTION(PQuser)(conn); }
char * PQpass(const PGconn *conn) { return CLIBPQ_FUNCTION(PQpass)(conn); }
char * PQhost(const PGconn *conn) { return CLIBPQ_FUNCTION(PQhost)(conn); }
char * PQhostaddr(const PGconn *conn) { return CLIBPQ_FUNCTION(PQhostaddr)(conn); }
char * PQport(const PGconn *conn) { return CLIBPQ_FUNCTION(PQport)(conn); }
char * PQtty(const PGconn *conn) { return CLIBPQ_FUNCTION(PQtty)(conn); }
char * PQoptions(const PGconn *conn) { return CLIBPQ_FUNCTION(PQoptions)(conn); }
ConnStatusType PQstatus(const PGconn *conn) { return CLIBPQ_FUNCTION(PQstatus)(conn); }
PGTransactionStatusType PQtransactionStatus(const PGconn *conn) { return CLIBPQ_FUNCTION(PQtransactionStatus)(conn); }
const char * PQparameterStatus(const PGconn *conn, const char *paramName) { return CLIBPQ_FUNCTION(PQparameterStatus)(conn, paramName); }
int PQprotocolVersion(const PGconn *conn) { return CLIBPQ_FUNCTION(PQprotocolVersion)(conn); }
int PQserverVersion(const PGconn *conn) { return CLIBPQ_FUNCTION(PQserverVersion)(conn); }
char * PQerrorMessage(const PGconn *conn) { return CLIBPQ_FUNCTION(PQerrorMessage)(conn); }
int PQsocket(const PGconn *conn) { return CLIBPQ_FUNCTION(PQsocket)(conn); }
int PQbackendPID(const PGconn *conn) { return CLIBPQ_FUNCTION(PQbackendPID)(conn); }
PGpipelineStatus PQpipelineStatus(const PGconn *conn) { return CLIBPQ_FUNCTION(PQpipelineStatus)(conn); }
int PQconnectionNeedsPassword(const PGconn *conn) { return CLIBPQ_FUNCTION(PQconnectionNeedsPassword)(conn); }
int PQconnectionUsedPassword(const PGconn *conn) { return CLIBPQ_FUNCTION(PQconnectionUsedPassword)(conn); }
int PQclientEncoding(const PGconn *conn) { return CLIBPQ_FUNCTION(PQclientEncoding)(conn); }
int PQsetClientEncoding(PGconn *conn, const char *encoding) { return CLIBPQ_FUNCTION(PQsetClientEncoding)(conn, encoding); }
int PQsslInUse(PGconn *conn) { return CLIBPQ_FUNCTION(PQsslInUse)(conn); }
void * PQsslStruct(PGconn *conn, const char *struct_name) { return CLIBPQ_FUNCTION(PQsslStruct)(conn, struct_name); }
const char * PQsslAttribute(PGconn *conn, const char *attribute_name) { return CLIBPQ_FUNCTION(PQsslAttribute)(conn, attribute_name); }
const char *const * PQsslAttributeNames(PGconn *conn) { return CLIBPQ_FUNCTION(PQsslAttributeNames)(conn); }
void * PQgetssl(PGconn *conn) { return CLIBPQ_FUNCTION(PQgetssl)(conn); }
void PQinitSSL(int do_init) { CLIBPQ_FUNCTION(PQinitSSL)(do_init); }
void PQinitOpenSSL(int do_ssl, int do_crypto) { CLIBPQ_FUNCTION(PQinitOpenSSL)(do_ssl, do_crypto); }
int PQgssEncInUse(PGconn *conn) { return CLIBPQ_FUNCTION(PQgssEncInUse)(conn); }
void * PQgetgssctx(PGconn *conn) { return CLIBPQ_FUNCTION(PQgetgssctx)(conn); }
PGVerbosity PQsetErrorVerbosity(PGconn *conn, PGVerbosity verbosity) { return CLIBPQ_FUNCTION(PQsetErrorVerbosity)(conn, verbosity); }
PGContextVisibility PQsetErrorContextVisibility(PGconn *conn, PGContextVisibility show_context) { return CLIBPQ_FUNCTION(PQsetErrorContextVisibility)(conn, show_context); }
PQnoticeReceiver PQsetNoticeReceiver(PGconn *conn, PQnoticeReceiver proc, void *arg) { return CLIBPQ_FUNCTION(PQsetNoticeReceiver)(conn, proc, arg); }
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) { return CLIBPQ_FUNCTION(PQsetNoticeProcessor)(conn, proc, arg); }
pgthreadlock_t PQregisterThreadLock(pgthreadlock_t newhandler) { return CLIBPQ_FUNCTION(PQregisterThreadLock)(newhandler); }
void PQtrace(PGconn *conn, FILE *debug_port) { CLIBPQ_FUNCTION(PQtrace)(conn, debug_port); }
void PQuntrace(PGconn *conn) { CLIBPQ_FUNCTION(PQuntrace)(conn); }
void PQsetTraceFlags(PGconn *conn, int flags) { CLIBPQ_FUNCTION(PQsetTraceFlags)(conn, flags); }
PGresult * PQexec(PGconn *conn, const char *query) { return CLIBPQ_FUNCTION(PQexec)(conn, query); }
PGresult * PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return CLIBPQ_FUNCTION(PQexecParams)(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat); }
PGresult * PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) { return CLIBPQ_FUNCTION(PQprepare)(conn, stmtName, query, nParams, paramTypes); }
PGresult * PQexecPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return CLIBPQ_FUNCTION(PQexecPrepared)(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat); }
int PQsendQuery(PGconn *conn, const char *query) { return CLIBPQ_FUNCTION(PQsendQuery)(conn, query); }
int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return CLIBPQ_FUNCTION(PQsendQueryParams)(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat); }
int PQsendPrepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) { return CLIBPQ_FUNCTION(PQsendPrepare)(conn, stmtName, query, nParams, paramTypes); }
int PQsendQueryPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) { return CLIBPQ_FUNCTION(PQsendQueryPrepared)(conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat); }
int PQsetSingleRowMode(PGconn *conn) { return CLIBPQ_FUNCTION(PQsetSingleRowMode)(conn); }
PGresult * PQgetResult(PGconn *conn) { return CLIBPQ_FUNCTION(PQgetResult)(conn); }
int PQisBusy(PGconn *conn) { return CLIBPQ_FUNCTION(PQisBusy)(conn); }
int PQconsumeInput(PGconn *conn) { return CLIBPQ_FUNCTION(PQconsumeInput)(conn); }
int PQenterPipelineMode(PGconn *conn) { return CLIBPQ_FUNCTION(PQenterPipelineMode)(conn); }
int PQexitPipelineMode(PGconn *conn) { return CLIBPQ_FUNCTION(PQexitPipelineMode)(conn); }
int PQpipelineSync(PGconn *conn) { return CLIBPQ_FUNCTION(PQpipelineSync)(conn); }
int PQsendFlushRequest(PGconn *conn) { return CLIBPQ_FUNCTION(PQsendFlushRequest)(conn); }
PGnotify * PQnotifies(PGconn *conn) { return CLIBPQ_FUNCTION(PQnotifies)(conn); }
int PQputCopyData(PGconn *conn, const char *buffer, int nbytes) { return CLIBPQ_FUNCTION(PQputCopyData)(conn, buffer, nbytes); }
int PQputCopyEnd(PGconn *conn, const char *errormsg) { return CLIBPQ_FUNCTION(PQputCopyEnd)(conn, errormsg); }
int PQgetCopyData(PGconn *conn, char **buffer, int async) { return CLIBPQ_FUNCTION(PQgetCopyData)(conn, buffer, async); }
int PQgetline(PGconn *conn, char *string, int length) { return CLIBPQ_FUNCTION(PQgetline)(conn, string, length); }
int PQputline(PGconn *conn, const char *string) { return CLIBPQ_FUNCTION(PQputline)(conn, string); }
int PQgetlineAsync(PGconn *conn, char *buffer, int bufsize) { return CLIBPQ_FUNCTION(PQgetlineAsync)(conn, buffer, bufsize); }
int PQputnbytes(PGconn *conn, const char *buffer, int nbytes) { return CLIBPQ_FUNCTION(PQputnbytes)(conn, buffer, nbytes); }
int PQendcopy(PGconn *conn) { return CLIBPQ_FUNCTION(PQendcopy)(conn); }
int PQsetnonblocking(PGconn *conn, int arg) { return CLIBPQ_FUNCTION(PQsetnonblocking)(conn, arg); }
int PQisnonblocking(const PGconn *conn) { return CLIBPQ_FUNCTION(PQisnonblocking)(conn); }
int PQisthreadsafe(void) { return CLIBPQ_FUNCTION(PQisthreadsafe)(); }
PGPing PQping(const char *conninfo) { return CLIBPQ_FUNCTION(PQping)(conninfo); }
PGPing PQpingParams(const char *const *keywords, const char *const *values, int expand_dbname) { return CLIBPQ_FUNCTION(PQpingParams)(keywords, values, expand_dbname); }
int PQflush(PGconn *conn) { return CLIBPQ_FUNCTION(PQflush)(conn); }
PGresult * PQfn(PGconn *conn, int fnid, int *result_buf, int *result_len, int result_is_int, const PQArgBlock *args, int nargs) { return CLIBPQ_FUNCTION(PQfn)(conn, fnid, result_buf, result_len, result_is_int, args, nargs); }
ExecStatusType PQresultStatus(const PGresult *res) { return CLIBPQ_FUNCTION(PQresultStatus)(res); }
char * PQresStatus(ExecStatusType status) { return CLIBPQ_FUNCTION(PQresStatus)(status); }
char * PQresultErrorMessage(const PGresult *res) { return CLIBPQ_FUNCTION(PQresultErrorMessage)(res); }
char * PQresultVerboseErrorMessage(const PGresult *res, PGVerbosity verbosity, PGContextVisibility show_context) { return CLIBPQ_FUNCTION(PQresultVerboseErrorMessage)(res, verbosity, show_context); }
char * PQresultErrorField(const PGresult *res, int fieldcode) { return CLIBPQ_FUNCTION(PQresultErrorField)(res, fieldcode); }
int PQntuples(const PGresult *res) { return CLIBPQ_FUNCTION(PQntuples)(res); }
int PQnfields(const PGresult *res) { return CLIBPQ_FUNCTION(PQnfields)(res); }
int PQbinaryTuples(const PGresult *res) { return CLIBPQ_FUNCTION(PQbinaryTuples)(res); }
char * PQfname(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQfname)(res, field_num); }
int PQfnumber(const PGresult *res, const char *field_name) { return CLIBPQ_FUNCTION(PQfnumber)(res, field_name); }
Oid PQftable(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQftable)(res, field_num); }
int PQftablecol(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQftablecol)(res, field_num); }
int PQfformat(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQfformat)(res, field_num); }
Oid PQftype(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQftype)(res, field_num); }
int PQfsize(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQfsize)(res, field_num); }
int PQfmod(const PGresult *res, int field_num) { return CLIBPQ_FUNCTION(PQfmod)(res, field_num); }
char * PQcmdStatus(PGresult *res) { return CLIBPQ_FUNCTION(PQcmdStatus)(res); }
char * PQoidStatus(const PGresult *res) { return CLIBPQ_FUNCTION(PQoidStatus)(res); }
Oid PQoidValue(const PGresult *res) { return CLIBPQ_FUNCTION(PQoidValue)(res); }
char * PQcmdTuples(PGresult *res) { return CLIBPQ_FUNCTION(PQcmdTuples)(res); }
char * PQgetvalue(const PGresult *res, int tup_num, int field_num) { return CLIBPQ_FUNCTION(PQgetvalue)(res, tup_num, field_num); }
int PQgetlength(const PGresult *res, int tup_num, int field_num) { return CLIBPQ_FUNCTION(PQgetlength)(res, tup_num, field_num); }
int PQgetisnull(const PGresult *res, int tup_num, int field_num) { return CLIBPQ_FUNCTION(PQgetisnull)(res, tup_num, field_num); }
int PQnparams(const PGresult *res) { return CLIBPQ_FUNCTION(PQnparams)(res); }
Oid PQparamtype(const PGresult *res, int param_num) { return CLIBPQ_FUNCTION(PQparamtype)(res, param_num); }
PGresult * PQdescribePrepared(PGconn *conn, const char *stmt) { return CLIBPQ_FUNCTION(PQdescribePrepared)(conn, stmt); }
PGresult * PQdescribePortal(PGconn *conn, const char *portal) { return CLIBPQ_FUNCTION(PQdescribePortal)(conn, portal); }
int PQsendDescribePrepared(PGconn *conn, const char *stmt) { return CLIBPQ_FUNCTION(PQsendDescribePrepared)(conn, stmt); }
int PQsendDescribePortal(PGconn *conn, const char *portal) { return CLIBPQ_FUNCTION(PQsendDescribePortal)(conn, portal); }
void PQclear(PGresult *res) { CLIBPQ_FUNCTION(PQclear)(res); }
void PQfreemem(void *ptr) { CLIBPQ_FUNCTION(PQfreemem)(ptr); }
PGresult * PQmakeEmptyPGresult(PGconn *conn, ExecStatusType status) { return CLIBPQ_FUNCTION(PQmakeEmptyPGresult)(conn, status); }
PGresult * PQcopyResult(const PGresult *src, int flags) { return CLIBPQ_FUNCTION(PQcopyResult)(src, flags); }
int PQsetResultAttrs(PGresult *res, int numAttributes, PGresAttDesc *attDescs) { return CLIBPQ_FUNCTION(PQsetResultAttrs)(res, numAttributes, attDescs); }
void * PQresultAlloc(PGresult *res, size_t nBytes) { return CLIBPQ_FUNCTION(PQresultAlloc)(res, nBytes); }
size_t PQresultMemorySize(const PGresult *res) { return CLIBPQ_FUNCTION(PQresultMemorySize)(res); }
int PQsetvalue(PGresult *res, int tup_num, int field_num, char *value, int len) { return CLIBPQ_FUNCTION(PQsetvalue)(res, tup_num, field_num, value, len); }
size_t PQescapeStringConn(PGconn *conn, char *to, const char *from, size_t length, int *error) { return CLIBPQ_FUNCTION(PQescapeStringConn)(conn, to, from, length, error); }
char * PQescapeLiteral(PGconn *conn, const char *str, size_t len) { return CLIBPQ_FUNCTION(PQescapeLiteral)(conn, str, len); }
char * PQescapeIdentifier(PGconn *conn, const char *str, size_t len) { return CLIBPQ_FUNCTION(PQescapeIdentifier)(conn, str, len); }
unsigned char * PQescapeByteaConn(PGconn *conn, const unsigned char *from, size_t from_length, size_t *to_length) { return CLIBPQ_FUNCTION(PQescapeByteaConn)(conn, from, from_length, to_length); }
unsigned char * PQunescapeBytea(const unsigned char *strtext, size_t *retbuflen) { return CLIBPQ_FUNCTION(PQunescapeBytea)(strtext, retbuflen); }
size_t PQescapeString(char *to, const char *from, size_t length) { return CLIBPQ_FUNCTION(PQescapeString)(to, from, length); }
unsigned char * PQescapeBytea(const unsigned char *from, size_t from_length, size_t *to_length) { return CLIBPQ_FUNCTION(PQescapeBytea)(from, from_length, to_length); }
void PQprint(FILE *fout, const PGresult *res, const PQprintOpt *ps) { CLIBPQ_FUNCTION(PQprint)(fout, res, ps); }
void PQdisplayTuples(const PGresult *res, FILE *fp, int fillAlign, const char *fieldSep, int printHeader, int quiet) { CLIBPQ_FUNCTION(PQdisplayTuples)(res, fp, fillAlign, fieldSep, printHeader, quiet); }
void PQprintTuples(const PGresult *res, FILE *fout, int PrintAttNames, int TerseOutput, int colWidth) { CLIBPQ_FUNCTION(PQprintTuples)(res, fout, PrintAttNames, TerseOutput, colWidth); }
int lo_open(PGconn *conn, Oid lobjId, int mode) { return CLIBPQ_FUNCTION(lo_open)(conn, lobjId, mode); }
int lo_close(PGconn *conn, int fd) { return CLIBPQ_FUNCTION(lo_close)(conn, fd); }
int lo_read(PGconn *conn, int fd, char *buf, size_t len) { return CLIBPQ_FUNCTION(lo_read)(conn, fd, buf, len); }
int lo_write(PGconn *conn, int fd, const char *buf, size_t len) { return CLIBPQ_FUNCTION(lo_write)(conn, fd, buf, len); }
int lo_lseek(PGconn *conn, int fd, int offset, int whence) { return CLIBPQ_FUNCTION(lo_lseek)(conn, fd, offset, whence); }
pg_int64 lo_lseek64(PGconn *conn, int fd, pg_int64 offset, int whence) { return CLIBPQ_FUNCTION(lo_lseek64)(conn, fd, offset, whence); }
Oid lo_creat(PGconn *conn, int mode) { return CLIBPQ_FUNCTION(lo_creat)(conn, mode); }
Oid lo_create(PGconn *conn, Oid lobjId) { return CLIBPQ_FUNCTION(lo_create)(conn, lobjId); }
int lo_tell(PGconn *conn, int fd) { return CLIBPQ_FUNCTION(lo_tell)(conn, fd); }
pg_int64 lo_tell64(PGconn *conn, int fd) { return CLIBPQ_FUNCTION(lo_tell64)(conn, fd); }
int lo_truncate(PGconn *conn, int fd, size_t len) { return CLIBPQ_FUNCTION(lo_truncate)(conn, fd, len); }
int lo_truncate64(PGconn *conn, int fd, pg_int64 len) { return CLIBPQ_FUNCTION(lo_truncate64)(conn, fd, len); }
int lo_unlink(PGconn *conn, Oid lobjId) { return CLIBPQ_FUNCTION(lo_unlink)(conn, lobjId); }
Oid lo_import(PGconn *conn, const char *filename) { return CLIBPQ_FUNCTION(lo_import)(conn, filename); }
Oid lo_import_with_oid(PGconn *conn, const char *filename, Oid lobjId) { return CLIBPQ_FUNCTION(lo_import_with_oid)(conn, filename, lobjId); }
int lo_export(PGconn *conn, Oid lobjId, const char *filename) { return CLIBPQ_FUNCTION(lo_export)(conn, lobjId, filename); }
int PQlibVersion(void) { return CLIBPQ_FUNCTION(PQlibVersion)(); }
int PQmblen(const char *s, int encoding) { return CLIBPQ_FUNCTION(PQmblen)(s, encoding); }
int PQmblenBounded(const char *s, int encoding) { return CLIBPQ_FUNCTION(PQmblenBounded)(s, encoding); }
int PQdsplen(const char *s, int encoding) { return CLIBPQ_FUNCTION(PQdsplen)(s, encoding); }
int PQenv2encoding(void) { return CLIBPQ_FUNCTION(PQenv2encoding)(); }
char * PQencryptPassword(const char *passwd, const char *user) { return CLIBPQ_FUNCTION(PQencryptPassword)(passwd, user); }
char * PQencryptPasswordConn(PGconn *conn, const char *passwd, const char *user, const char *algorithm) { return CLIBPQ_FUNCTION(PQencryptPasswordConn)(conn, passwd, user, algorithm); }
int pg_char_to_encoding(const char *name) { return CLIBPQ_FUNCTION(pg_char_to_encoding)(name); }
const char * pg_encoding_to_char(int encoding) { return CLIBPQ_FUNCTION(pg_encoding_to_char)(encoding); }
int pg_valid_server_encoding_id(int encoding) { return CLIBPQ_FUNCTION(pg_valid_server_encoding_id)(encoding); }
PQsslKeyPassHook_OpenSSL_type PQgetSSLKeyPassHook_OpenSSL(void) { return CLIBPQ_FUNCTION(PQgetSSLKeyPassHook_OpenSSL)(); }
void PQsetSSLKeyPassHook_OpenSSL(PQsslKeyPassHook_OpenSSL_type hook) { CLIBPQ_FUNCTION(PQsetSSLKeyPassHook_OpenSSL)(hook); }
int PQdefaultSSLKeyPassHook_OpenSSL(char *buf, int size, PGconn *conn) { return CLIBPQ_FUNCTION(PQdefaultSSLKeyPassHook_OpenSSL)(buf, size, conn); }
