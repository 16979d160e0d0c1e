// libcurl and libxml2, loaded on first use instead of at every start.
//
// Foundation's URLSession (FoundationNetworking) runs on libcurl and its XMLParser (FoundationXML)
// on libxml2. Linked the usual way, both are needed by the executable, so every `carnet` process
// loaded them and the forty libraries they need in turn (TLS, Kerberos, LDAP, ICU, ...) and ran
// their initializers: about 3 ms of every start, half of `carnet query`'s time, for something
// only `carnet sync` uses.
//
// Instead, this target defines every libcurl and libxml2 function Foundation calls (the list is
// symbols.def, made by BuildTools/LazyLibraries/symbols.sh from a release binary) as a trampoline
// (trampolines.S): it jumps to the real function, whose address it finds in a table that the
// first call of any of them fills, after dlopen of both libraries. The definitions are hidden:
// they serve only the references inside the executable, and nothing loaded later binds to them.
// `make release` links against empty libcurl.a and libxml2.a archives (see the Makefile), so the
// executable no longer names the shared libraries; any other build still names them, and the
// trampolines then find the libraries already loaded.
#if defined(__x86_64__) && defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include "CLazyLibraries.h"

enum { count = 0
#define LAZY(index, library, name) + 1
#include "symbols.def"
#undef LAZY
};

static const char *const libraries[] = {"libcurl.so.4", "libxml2.so.2"};
static const struct {
    int library;
    const char *name;
} functions[count] = {
#define LAZY(index, library, name) [index] = {library, #name},
#include "symbols.def"
#undef LAZY
};

/// The address of each function of symbols.def, in its order; 0 until loaded.
__attribute__((visibility("hidden"))) void *carnet_lazy_table[count];
/// libxml2's `xmlFree`, a variable holding the function that frees its memory.
static void (**xml_free)(void *);
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

/// A library or function that is not there: the program cannot go on (these come with the
/// system's libcurl4 and libxml2 packages, which the binary needed at start before).
static void fail(const char *what, const char *library) {
    fprintf(stderr, "carnet: cannot load %s from %s, which sync needs: %s\n", what, library, dlerror());
    _exit(69);
}

static void load(void) {
    void *handles[2];
    for (int i = 0; i < 2; i++) {
        handles[i] = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) fail("the library", libraries[i]);
    }
    for (int i = 0; i < count; i++) {
        void *address = dlsym(handles[functions[i].library], functions[i].name);
        if (!address) fail(functions[i].name, libraries[functions[i].library]);
        __atomic_store_n(&carnet_lazy_table[i], address, __ATOMIC_RELEASE);
    }
    xml_free = dlsym(handles[1], "xmlFree");
    if (!xml_free) fail("xmlFree", libraries[1]);
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

/// Called by a trampoline whose function is not loaded yet (any thread; the first loads).
__attribute__((visibility("hidden"))) void carnet_lazy_load(void) { pthread_once(&once, load); }

int carnet_lazy_libraries_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

static void lazy_xml_free(void *memory) {
    carnet_lazy_load();
    (*xml_free)(memory);
}
/// FoundationXML frees libxml2's memory through the variable `xmlFree`: this one calls libxml2's.
__attribute__((visibility("hidden"))) void (*xmlFree)(void *) = lazy_xml_free;

#else
#include "CLazyLibraries.h"
int carnet_lazy_libraries_loaded(void) { return 0; }
#endif
