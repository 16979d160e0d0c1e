#ifndef CARNET_CURL_H
#define CARNET_CURL_H
#include <curl/curl.h>

// curl_easy_setopt() and curl_easy_getinfo() are variadic, which Swift cannot call: one
// wrapper per type of argument the CardDAV transport passes.

static inline CURLcode carnet_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode carnet_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode carnet_curl_set_size(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

/// A write or header callback: called with each piece of the answer's body or each header line.
typedef size_t (*carnet_curl_receive)(char *data, size_t size, size_t count, void *context);

static inline CURLcode carnet_curl_set_receiver(CURL *curl, CURLoption option, carnet_curl_receive receive) {
    return curl_easy_setopt(curl, option, receive);
}

static inline long carnet_curl_get_long(CURL *curl, CURLINFO info) {
    long value = 0;
    return curl_easy_getinfo(curl, info, &value) == CURLE_OK ? value : 0;
}

#endif
