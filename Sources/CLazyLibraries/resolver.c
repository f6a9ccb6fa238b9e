// Loads a lazy library on the first call of one of its functions (see scripts/lazy-libraries).
#if !defined(__x86_64__) || !defined(__linux__)
#error "CLazyLibraries has trampolines for x86_64 Linux only (docs/DESIGN-NOTES.md \"Footprint\")"
#endif
#define _GNU_SOURCE
#include "lazy_library.h"
#include "CLazyLibraries.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { exit_software = 70 };  // EX_SOFTWARE, xmpp-tools(7)

static _Noreturn void fail(const char *what, const char *soname, const char *detail) {
    // stderr is unbuffered; _exit, since other threads may be inside the library's callers.
    fprintf(stderr, "%s: %s %s: %s\n", program_invocation_short_name, what, soname, detail ? detail : "unknown error");
    _exit(exit_software);
}

static void open_library(struct xt_lazy_library *library) {
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) fail("cannot load", library->soname, dlerror());
    for (int i = 0; i < library->count; i++) {
        dlerror();
        void *function = dlsym(handle, library->names[i]);
        if (function == NULL) fail("cannot find a function in", library->soname, library->names[i]);
        __atomic_store_n(&library->slots[i], function, __ATOMIC_RELEASE);
    }
    library->handle = handle;
}

// pthread_once takes no argument, hence one function per library; the index comes from a
// thread-local set just before (each thread sets its own, and pthread_once runs the routine
// in the calling thread).
static _Thread_local struct xt_lazy_library *opening;
static void open_opening(void) { open_library(opening); }

static void ensure_loaded(struct xt_lazy_library *library) {
    if (library->after >= 0) ensure_loaded(&xt_lazy_libraries[library->after]);
    opening = library;
    pthread_once(&library->once, open_opening);
}

/// Called by the trampolines' first-call path (trampolines.S) with the address of the slot
/// that led here; returns with that slot (and all of its library's) filled.
__attribute__((visibility("hidden"))) void xt_lazy_resolve(void **slot) {
    for (int k = 0; k < xt_lazy_library_count; k++) {
        struct xt_lazy_library *library = &xt_lazy_libraries[k];
        if (slot >= library->slots && slot < library->slots + library->count) {
            ensure_loaded(library);
            return;
        }
    }
    fail("no lazy library holds slot", "", "internal error");
}

__attribute__((visibility("hidden"))) void *xt_lazy_data(const char *soname, const char *symbol) {
    for (int k = 0; k < xt_lazy_library_count; k++) {
        struct xt_lazy_library *library = &xt_lazy_libraries[k];
        if (strcmp(library->soname, soname) != 0) continue;
        ensure_loaded(library);
        void *data = dlsym(library->handle, symbol);
        if (data == NULL) fail("cannot find a variable in", soname, symbol);
        return data;
    }
    fail("no lazy library list names", soname, symbol);
}

int xt_lazy_library_is_loaded(const char *soname) {
    return dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) != NULL;
}
