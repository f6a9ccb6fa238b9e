#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H

/// Whether the library with this soname is loaded in the process (for tests; a lazy library is
/// loaded at the first call of one of its functions, not at start-up).
int xt_lazy_library_is_loaded(const char *soname);

#endif
