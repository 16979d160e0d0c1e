// HTTP for the CardDAV sync through the system's libcurl, loaded with dlopen the first time a
// sync sends a request.
//
// Linking libcurl (as Foundation's URLSession does) makes the dynamic loader map it and its
// thirty-odd libraries (TLS, Kerberos, LDAP, IDN, …) at every start of every `carnet` command:
// `carnet --version` took more than twice as long. Only `carnet sync` needs HTTP, so only it loads
// libcurl. No libcurl header is needed to build: the few option numbers used are part of
// libcurl's stable ABI and are written out in carnet_curl.c.
#ifndef CARNET_CURL_H
#define CARNET_CURL_H

#include <stddef.h>

/// One connection to reuse between requests (libcurl keeps it open).
typedef struct carnet_http carnet_http;

typedef struct carnet_http_response {
    /// The HTTP status of the last response (after redirects), 0 when none came.
    long status;
    /// The raw header lines of the last response, CRLF-separated (status line included).
    char *headers;
    size_t headers_length;
    char *body;
    size_t body_length;
    /// libcurl's result code (0: a response came; CurlTransport.failure tells them apart).
    int code;
    /// The system's errno of the last failed connect (ECONNREFUSED, …), 0 when none.
    long os_error;
    /// 1 when the server took the request and then sent nothing for `answer_timeout_ms` (the
    /// request was given up; `code` is then libcurl's "aborted by callback").
    int silent;
    /// 1 when the body went past `max_body` bytes: it was not read further (`code` is then not 0).
    int too_large;
    /// What went wrong, in libcurl's words, when code is not 0.
    char error[512];
} carnet_http_response;

/// Loads libcurl (once per process) and opens a handle; NULL with the reason in `error` when
/// libcurl is not installed.
carnet_http *carnet_http_open(char *error, size_t error_size);

/// Sends one request and waits for its answer. `headers` are "Name: value" lines. Gives up when
/// no connection is made within `connect_timeout_ms`, or when, once connected, not a byte moves
/// either way for `answer_timeout_ms` (however long a large answer takes in all), or when the
/// body goes past `max_body` bytes (0: no bound). `ca_pem`, when not NULL, is the only CA the
/// server's certificate is verified against (PEM text). The response's buffers belong to the
/// caller: carnet_http_response_free (or free(), for one taken out of it).
void carnet_http_perform(
    carnet_http *http, const char *method, const char *url, const char *const *headers, int header_count,
    const void *body, size_t body_length, long connect_timeout_ms, long answer_timeout_ms, size_t max_body,
    const char *ca_pem, carnet_http_response *response);

void carnet_http_response_free(carnet_http_response *response);

void carnet_http_close(carnet_http *http);

#endif
