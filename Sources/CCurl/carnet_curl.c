#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// libcurl's ABI, as in curl/curl.h (stable since 7.x): option = type base + number.
enum {
    OPT_LONG = 0, OPT_OBJECT = 10000, OPT_FUNCTION = 20000, OPT_OFF_T = 30000,
    CURLOPT_WRITEDATA = OPT_OBJECT + 1,
    CURLOPT_URL = OPT_OBJECT + 2,
    CURLOPT_ERRORBUFFER = OPT_OBJECT + 10,
    CURLOPT_WRITEFUNCTION = OPT_FUNCTION + 11,
    CURLOPT_POSTFIELDS = OPT_OBJECT + 15,
    CURLOPT_USERAGENT = OPT_OBJECT + 18,
    CURLOPT_HTTPHEADER = OPT_OBJECT + 23,
    CURLOPT_HEADERDATA = OPT_OBJECT + 29,
    OPT_BLOB = 40000,
    CURLOPT_CUSTOMREQUEST = OPT_OBJECT + 36,
    CURLOPT_NOPROGRESS = OPT_LONG + 43,
    CURLOPT_NOBODY = OPT_LONG + 44,
    CURLOPT_FOLLOWLOCATION = OPT_LONG + 52,
    CURLOPT_XFERINFODATA = OPT_OBJECT + 57,
    CURLOPT_MAXREDIRS = OPT_LONG + 68,
    CURLOPT_CAINFO = OPT_OBJECT + 65,
    CURLOPT_HEADERFUNCTION = OPT_FUNCTION + 79,
    CURLOPT_HTTPGET = OPT_LONG + 80,
    CURLOPT_CAPATH = OPT_OBJECT + 97,
    CURLOPT_NOSIGNAL = OPT_LONG + 99,
    CURLOPT_ACCEPT_ENCODING = OPT_OBJECT + 102,
    CURLOPT_MAXFILESIZE_LARGE = OPT_OFF_T + 117,
    CURLOPT_POSTFIELDSIZE_LARGE = OPT_OFF_T + 120,
    CURLOPT_CONNECTTIMEOUT_MS = OPT_LONG + 156,
    CURLOPT_POSTREDIR = OPT_LONG + 161,
    CURLOPT_XFERINFOFUNCTION = OPT_FUNCTION + 219,
    CURLOPT_CAINFO_BLOB = OPT_BLOB + 309,
    CURLE_FILESIZE_EXCEEDED = 63,
    CURL_BLOB_COPY = 1,
    CURLINFO_RESPONSE_CODE = 0x200000 + 2,
    CURLINFO_PRETRANSFER_TIME = 0x300000 + 6,
    CURLINFO_OS_ERRNO = 0x200000 + 25,
    CURL_GLOBAL_DEFAULT = 3,
    CURL_REDIR_POST_ALL = 7,
    CURL_ERROR_SIZE = 256,
};

typedef void CURL;
struct curl_slist;
struct curl_blob {
    void *data;
    size_t len;
    unsigned int flags;
};
typedef size_t (*write_callback)(char *, size_t, size_t, void *);
typedef int (*progress_callback)(void *, long long, long long, long long, long long);

// The functions Carnet calls, found in libcurl.so.4 at run time. curl_easy_setopt and
// curl_easy_getinfo are variadic in C; each is called here with the one argument type its
// option takes, as curl.h's own macros do.
static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (libcurl.so.4 not found; apt-get install libcurl4)");
        return;
    }
#define FIND(field, symbol)                                                                      \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) {                                     \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s: too old a libcurl", symbol); \
        curl.easy_init = NULL;                                                                   \
        return;                                                                                  \
    }
    FIND(global_init, "curl_global_init")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_reset, "curl_easy_reset")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
    FIND(easy_init, "curl_easy_init")
#undef FIND
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != 0) {
        snprintf(load_error, sizeof load_error, "libcurl could not start (curl_global_init failed)");
        curl.easy_init = NULL;
    }
}

struct carnet_http {
    CURL *handle;
};

carnet_http *carnet_http_open(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (!curl.easy_init) {
        snprintf(error, error_size, "%s", load_error);
        return NULL;
    }
    carnet_http *http = calloc(1, sizeof *http);
    if (http) http->handle = curl.easy_init();
    if (!http || !http->handle) {
        free(http);
        snprintf(error, error_size, "libcurl could not open a connection handle (out of memory)");
        return NULL;
    }
    return http;
}

void carnet_http_close(carnet_http *http) {
    if (!http) return;
    curl.easy_cleanup(http->handle);
    free(http);
}

typedef struct buffer {
    char *bytes;
    size_t length, capacity;
    /// The most bytes it takes (0: no bound); past it, `over` is set and the transfer stops.
    size_t limit;
    int over;
} buffer;

static size_t append(char *data, size_t size, size_t count, void *context) {
    buffer *into = context;
    size_t length = size * count;
    if (into->limit && length > into->limit - into->length) {
        into->over = 1;
        return 0;  // libcurl stops the transfer: CURLE_WRITE_ERROR
    }
    if (into->length + length + 1 > into->capacity) {
        size_t capacity = into->capacity ? into->capacity : 4096;
        while (capacity < into->length + length + 1) capacity *= 2;
        if (into->limit && capacity > into->limit + 1) capacity = into->limit + 1;
        char *bytes = realloc(into->bytes, capacity);
        if (!bytes) return 0;  // libcurl stops the transfer: CURLE_WRITE_ERROR
        into->bytes = bytes;
        into->capacity = capacity;
    }
    memcpy(into->bytes + into->length, data, length);
    into->length += length;
    into->bytes[into->length] = 0;
    return length;
}

// A redirect's headers come before the final response's: keep only the last response's.
static size_t append_header(char *data, size_t size, size_t count, void *context) {
    buffer *into = context;
    if (size * count >= 5 && memcmp(data, "HTTP/", 5) == 0) into->length = 0;
    return append(data, size, count, context);
}

/// How long a request may go without a byte moving, and what was seen of it: libcurl calls
/// `watch_progress` about once a second, and more often while bytes move.
typedef struct {
    CURL *handle;
    long silence_ms;
    long long down, up;
    struct timespec moved;
    int silent;
} watch;

static long milliseconds_since(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long)((now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000);
}

static int watch_progress(void *context, long long down_total, long long down, long long up_total, long long up) {
    (void)down_total, (void)up_total;
    watch *w = context;
    double pretransfer = 0;
    curl.easy_getinfo(w->handle, CURLINFO_PRETRANSFER_TIME, &pretransfer);
    // Until the request goes (connecting, TLS), the connect timeout is the one that counts.
    if (pretransfer <= 0 || down != w->down || up != w->up) {
        w->down = down;
        w->up = up;
        clock_gettime(CLOCK_MONOTONIC, &w->moved);
        return 0;
    }
    if (milliseconds_since(&w->moved) < w->silence_ms) return 0;
    w->silent = 1;
    return 1;  // gives the request up
}

void carnet_http_perform(
    carnet_http *http, const char *method, const char *url, const char *const *headers, int header_count,
    const void *body, size_t body_length, long connect_timeout_ms, long answer_timeout_ms, size_t max_body,
    const char *ca_pem, carnet_http_response *response) {
    memset(response, 0, sizeof *response);
    CURL *handle = http->handle;
    curl.easy_reset(handle);  // keeps the open connection, forgets the last request's options
    // Headers have libcurl's own bound; the body has the caller's (also against a small
    // compressed answer that inflates without end: the bound counts the bytes written here).
    buffer head = {0}, content = {.limit = max_body};
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    // Without this, libcurl adds "Expect: 100-continue" to a large upload and waits for the answer.
    list = curl.slist_append(list, "Expect:");

    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, response->error);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_USERAGENT, "carnet");
    curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
    // A request with a body keeps it across a 301, 302 or 303 (libcurl drops it by default, as
    // browsers do for a form): `/.well-known/carddav` redirects, and a PROPFIND without its body
    // is asked for every property but the ones Carnet needs.
    curl.easy_setopt(handle, CURLOPT_POSTREDIR, (long)CURL_REDIR_POST_ALL);
    // A server that is down is told quickly; one that is up may think for long before its first
    // byte (Radicale lists 60,000 cards in about a minute): give up only when not a byte has
    // moved for the answer's timeout, however long a large answer takes in all. (libcurl's own
    // low-speed limit averages over several seconds, so a short request's bytes kept it from
    // seeing a silent server for five seconds more than asked.)
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    watch silence = {.handle = handle, .silence_ms = answer_timeout_ms};
    clock_gettime(CLOCK_MONOTONIC, &silence.moved);
    curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, (progress_callback)watch_progress);
    curl.easy_setopt(handle, CURLOPT_XFERINFODATA, (void *)&silence);
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, (write_callback)append);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, (void *)&content);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, (write_callback)append_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, (void *)&head);
    // An answer that says its length up front is refused before its first byte.
    if (max_body) curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (long long)max_body);
    if (ca_pem) {
        // This CA only, not the system's too: what the account pinned.
        struct curl_blob blob = {.data = (void *)ca_pem, .len = strlen(ca_pem), .flags = CURL_BLOB_COPY};
        curl.easy_setopt(handle, CURLOPT_CAINFO, (char *)NULL);
        curl.easy_setopt(handle, CURLOPT_CAPATH, (char *)NULL);
        if (curl.easy_setopt(handle, CURLOPT_CAINFO_BLOB, &blob) != 0) {
            snprintf(response->error, sizeof response->error, "this libcurl cannot take a CA of its own (7.77 or later can)");
            response->code = -1;
            curl.slist_free_all(list);
            return;
        }
    }
    if (strcmp(method, "HEAD") == 0) {
        curl.easy_setopt(handle, CURLOPT_NOBODY, 1L);
    } else if (body) {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (long long)body_length);
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    } else if (strcmp(method, "GET") == 0) {
        curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    } else {
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    }

    response->code = curl.easy_perform(handle);
    if (response->code != 0 && response->error[0] == 0) {
        snprintf(response->error, sizeof response->error, "%s", curl.easy_strerror(response->code));
    }
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response->status);
    curl.easy_getinfo(handle, CURLINFO_OS_ERRNO, &response->os_error);
    response->silent = silence.silent;
    response->too_large = content.over || response->code == CURLE_FILESIZE_EXCEEDED;
    curl.slist_free_all(list);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, (char *)NULL);
    response->headers = head.bytes;
    response->headers_length = head.length;
    // The buffer may be up to twice what it holds: give the rest back before it is kept.
    if (content.bytes && content.capacity > content.length + 1) {
        char *fitted = realloc(content.bytes, content.length + 1);
        if (fitted) content.bytes = fitted;
    }
    response->body = content.bytes;
    response->body_length = content.length;
}

void carnet_http_response_free(carnet_http_response *response) {
    free(response->headers);
    free(response->body);
    response->headers = response->body = NULL;
}
