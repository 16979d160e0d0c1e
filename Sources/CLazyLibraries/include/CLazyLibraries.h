#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H

/// Whether libcurl and libxml2 are loaded yet: they are loaded by the first call into either
/// (a `carnet sync`), not when the program starts (see lazy.c).
int carnet_lazy_libraries_loaded(void);

#endif
