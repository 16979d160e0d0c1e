// The history's long parts, compressed with zlib (deflate at its fastest level): an import's
// changesets repeat table names, column types and similar values row after row, and shrink to
// about a sixth. The format is the zlib stream after a 6-byte header: 0x00 'z', then the
// changeset's size as 4 bytes, big-endian. A changeset never starts with 0x00 (its first byte is
// 'T', a table), so a stored part says by its first byte which it is.
//
// libz is loaded at the first long part, not linked: a command that writes none (every
// completion a mail client asks for) does not map it at start-up.
#define SQLITE_ENABLE_SESSION 1
#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>
#include "CSQLiteSession.h"

#define HEADER 6

static struct {
    unsigned long (*compressBound)(unsigned long sourceLen);
    int (*compress2)(unsigned char *dest, unsigned long *destLen, const unsigned char *source, unsigned long sourceLen, int level);
    int (*uncompress)(unsigned char *dest, unsigned long *destLen, const unsigned char *source, unsigned long sourceLen);
} zlib;
static pthread_once_t zlibOnce = PTHREAD_ONCE_INIT;

static void loadZlib(void) {
#ifdef __APPLE__
    void *library = dlopen("libz.1.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
#endif
    if (!library) return;
    *(void **)&zlib.compressBound = dlsym(library, "compressBound");
    *(void **)&zlib.compress2 = dlsym(library, "compress2");
    *(void **)&zlib.uncompress = dlsym(library, "uncompress");
    if (!zlib.compressBound || !zlib.compress2 || !zlib.uncompress) zlib.compress2 = 0;
}

int carnet_history_can_compress(void) {
    pthread_once(&zlibOnce, loadZlib);
    return zlib.compress2 != 0;
}

int carnet_history_compress(int size, const void *bytes, int *storedSize, void **stored) {
    *stored = 0;
    *storedSize = 0;
    if (!carnet_history_can_compress()) return SQLITE_ERROR;
    unsigned long bound = zlib.compressBound((unsigned long)size);
    unsigned char *out = sqlite3_malloc64(HEADER + bound);
    if (!out) return SQLITE_NOMEM;
    out[0] = 0;
    out[1] = 'z';
    out[2] = (unsigned char)((unsigned)size >> 24);
    out[3] = (unsigned char)((unsigned)size >> 16);
    out[4] = (unsigned char)((unsigned)size >> 8);
    out[5] = (unsigned char)size;
    unsigned long written = bound;
    if (zlib.compress2(out + HEADER, &written, bytes, (unsigned long)size, 1) != 0) {
        sqlite3_free(out);
        return SQLITE_ERROR;
    }
    *stored = out;
    *storedSize = (int)(HEADER + written);
    return SQLITE_OK;
}

int carnet_history_is_compressed(int size, const void *bytes) {
    const unsigned char *b = bytes;
    return size >= HEADER && b[0] == 0 && b[1] == 'z';
}

int carnet_history_decompress(int size, const void *bytes, int *changesSize, void **changes) {
    *changes = 0;
    *changesSize = 0;
    if (!carnet_history_is_compressed(size, bytes)) return SQLITE_CORRUPT;
    if (!carnet_history_can_compress()) return SQLITE_CANTOPEN;
    const unsigned char *b = bytes;
    unsigned long expected = ((unsigned long)b[2] << 24) | ((unsigned long)b[3] << 16) | ((unsigned long)b[4] << 8) | (unsigned long)b[5];
    unsigned char *out = sqlite3_malloc64(expected ? expected : 1);
    if (!out) return SQLITE_NOMEM;
    unsigned long written = expected;
    if (zlib.uncompress(out, &written, b + HEADER, (unsigned long)(size - HEADER)) != 0 || written != expected) {
        sqlite3_free(out);
        return SQLITE_CORRUPT;
    }
    *changes = out;
    *changesSize = (int)written;
    return SQLITE_OK;
}
