#ifndef XT_LAZY_LIBRARY_H
#define XT_LAZY_LIBRARY_H
#include <pthread.h>

/// One library loaded on first use: its trampolines jump through `slots`, which lead to the
/// resolver until it has filled them with the library's functions.
struct xt_lazy_library {
    const char *soname;
    int after;                 // index of a library to load first, or -1
    const char *const *names;  // the functions, in the order of their slots
    void **slots;
    int count;
    pthread_once_t once;
    void *handle;              // set once loaded
};

extern struct xt_lazy_library xt_lazy_libraries[];
extern const int xt_lazy_library_count;

/// The address of a data symbol of the library with this soname, loading it first (a
/// variable cannot be reached through a trampoline). Ends the program when it is missing.
void *xt_lazy_data(const char *soname, const char *symbol);

#endif
