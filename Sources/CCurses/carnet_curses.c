#include "CCurses.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// ncurses 6's ABI (curses.h): chtype and attr_t are 32 bits, wget_wch's results.
enum { OK = 0, ERR = -1, KEY_CODE_YES = 0400 };
typedef void WINDOW;
typedef void SCREEN;
typedef unsigned int attr_t;

// The functions Carnet calls, found in libncursesw.so.6 at run time.
static struct {
    SCREEN *(*newterm)(const char *, FILE *, FILE *);
    int (*endwin)(void);
    void (*delscreen)(SCREEN *);
    int (*raw)(void);
    int (*noecho)(void);
    int (*nonl)(void);
    int (*keypad)(WINDOW *, int);
    int (*nodelay)(WINDOW *, int);
    int (*curs_set)(int);
    int (*set_escdelay)(int);
    int (*has_colors)(void);
    int (*start_color)(void);
    int (*use_default_colors)(void);
    int (*init_pair)(short, short, short);
    int (*getmaxy)(const WINDOW *);
    int (*getmaxx)(const WINDOW *);
    int (*resize_term)(int, int);
    int (*werase)(WINDOW *);
    int (*wmove)(WINDOW *, int, int);
    int (*waddnwstr)(WINDOW *, const wchar_t *, int);
    int (*wattr_set)(WINDOW *, attr_t, short, void *);
    int (*wrefresh)(WINDOW *);
    int (*wget_wch)(WINDOW *, unsigned int *);
    int (*def_prog_mode)(void);
    int (*reset_prog_mode)(void);
    int (*clearok)(WINDOW *, int);
    WINDOW **stdscr;
    WINDOW **curscr;
} nc;

static SCREEN *screen;

static int load(char *error, size_t error_size) {
    static void *library;
    if (library) return 0;
    const char *names[] = {"libncursesw.so.6", "libncursesw.so.5", "libncursesw.so"};
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, error_size, "the full-screen interface needs ncursesw (libncursesw6), which is not installed: %s", dlerror());
        return -1;
    }
#define FIND(name) \
    if (!(*(void **)&nc.name = dlsym(library, #name))) { \
        snprintf(error, error_size, "ncursesw lacks %s", #name); \
        dlclose(library); library = NULL; return -1; \
    }
    FIND(newterm) FIND(endwin) FIND(delscreen) FIND(raw) FIND(noecho) FIND(nonl) FIND(keypad) FIND(nodelay)
    FIND(curs_set) FIND(set_escdelay) FIND(has_colors) FIND(start_color) FIND(use_default_colors) FIND(init_pair)
    FIND(getmaxy) FIND(getmaxx) FIND(resize_term) FIND(werase) FIND(wmove) FIND(waddnwstr) FIND(wattr_set)
    FIND(wrefresh) FIND(wget_wch) FIND(def_prog_mode) FIND(reset_prog_mode) FIND(clearok) FIND(stdscr) FIND(curscr)
#undef FIND
    return 0;
}

int carnet_curses_open(int colors, char *error, size_t error_size) {
    if (screen) return 0;
    if (load(error, error_size) != 0) return -1;
    // ncursesw writes wide characters in the locale's encoding: it must be UTF-8.
    setlocale(LC_CTYPE, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
    screen = nc.newterm(NULL, stdout, stdin);
    if (!screen) {
        const char *term = getenv("TERM");
        snprintf(error, error_size, "cannot draw on this terminal (TERM=%s): terminfo does not describe it", term ? term : "");
        return -1;
    }
    nc.raw();
    nc.noecho();
    nc.nonl();
    nc.keypad(*nc.stdscr, 1);
    nc.nodelay(*nc.stdscr, 1);
    nc.set_escdelay(25);
    nc.curs_set(0);
    if (colors && nc.has_colors()) {
        nc.start_color();
        nc.use_default_colors();
        nc.init_pair(1, 6, -1);  // cyan: headings and the tab bar's keys
        nc.init_pair(2, 3, -1);  // yellow: messages
        nc.init_pair(3, 1, -1);  // red: errors
    }
    return 0;
}

void carnet_curses_close(void) {
    if (!screen) return;
    nc.curs_set(1);
    nc.endwin();
    nc.delscreen(screen);
    screen = NULL;
}

void carnet_curses_size(int *rows, int *columns) {
    *rows = screen ? nc.getmaxy(*nc.stdscr) : 0;
    *columns = screen ? nc.getmaxx(*nc.stdscr) : 0;
}

void carnet_curses_resized(void) {
    struct winsize size;
    if (!screen || ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0) return;
    nc.resize_term(size.ws_row, size.ws_col);
    nc.clearok(*nc.curscr, 1);
}

void carnet_curses_erase(void) {
    if (screen) nc.werase(*nc.stdscr);
}

void carnet_curses_put(int y, int x, const wchar_t *text, int count, int attributes, int pair) {
    if (!screen) return;
    nc.wattr_set(*nc.stdscr, (attr_t)attributes, (short)pair, NULL);
    if (nc.wmove(*nc.stdscr, y, x) == OK) nc.waddnwstr(*nc.stdscr, text, count);
    nc.wattr_set(*nc.stdscr, 0, 0, NULL);
}

void carnet_curses_refresh(void) {
    if (screen) nc.wrefresh(*nc.stdscr);
}

int carnet_curses_read(int *value) {
    if (!screen) return CARNET_READ_NONE;
    unsigned int code = 0;
    int kind = nc.wget_wch(*nc.stdscr, &code);
    *value = (int)code;
    if (kind == OK) return CARNET_READ_CHAR;
    if (kind == KEY_CODE_YES) return CARNET_READ_KEY;
    return CARNET_READ_NONE;
}

void carnet_curses_suspend(void) {
    if (!screen) return;
    nc.def_prog_mode();
    nc.endwin();
}

void carnet_curses_resume(void) {
    if (!screen) return;
    nc.reset_prog_mode();
    nc.clearok(*nc.curscr, 1);
    nc.wrefresh(*nc.stdscr);
}

static int signal_pipe[2] = {-1, -1};
static const int watched[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGCONT};
static struct sigaction previous[sizeof watched / sizeof *watched];

static void on_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    ssize_t written = write(signal_pipe[1], &byte, 1);
    (void)written;  // a full pipe already holds a wake-up
    errno = saved;
}

int carnet_curses_signals_begin(void) {
    if (signal_pipe[0] >= 0) return signal_pipe[0];
    if (pipe(signal_pipe) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(signal_pipe[i], F_SETFL, fcntl(signal_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(signal_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t handled;
    sigemptyset(&handled);
    for (size_t i = 0; i < sizeof watched / sizeof *watched; i++) {
        sigaction(watched[i], &action, &previous[i]);
        sigaddset(&handled, watched[i]);
    }
    // A program that started carnet from a thread blocking signals (a dispatch worker does)
    // passes the mask on: a resize or a SIGTERM would then never arrive. This thread takes them.
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    return signal_pipe[0];
}

void carnet_curses_signals_end(void) {
    if (signal_pipe[0] < 0) return;
    for (size_t i = 0; i < sizeof watched / sizeof *watched; i++) sigaction(watched[i], &previous[i], NULL);
    close(signal_pipe[0]);
    close(signal_pipe[1]);
    signal_pipe[0] = signal_pipe[1] = -1;
}

void carnet_curses_stop(void) {
    struct sigaction action, saved;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTSTP, &action, &saved);
    // The whole group, as the terminal's Ctrl-Z would: a shell's job is its group.
    kill(0, SIGTSTP);
    sigaction(SIGTSTP, &saved, NULL);
}
