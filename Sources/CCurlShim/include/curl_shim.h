#ifndef MAPFRAME_CURL_SHIM_H
#define MAPFRAME_CURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call; these typed wrappers can be.

CURLcode mf_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode mf_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode mf_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode mf_curl_easy_setopt_write_function(CURL *handle, CURLoption option,
                                            size_t (*callback)(char *, size_t, size_t, void *));
CURLcode mf_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode mf_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLcode mf_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLMcode mf_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

#endif
