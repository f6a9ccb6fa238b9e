#ifndef XT_CLIBCURL_SHIM_H
#define XT_CLIBCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per kind of value. */
static inline CURLcode xt_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode xt_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode xt_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode xt_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*xt_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode xt_curl_setopt_write_function(CURL *handle, xt_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode xt_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
static inline CURLcode xt_curl_use_basic_auth(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
}
#endif
