// libedit (BSD licence), through its readline-compatible interface: line editing, history and
// Ctrl-L for `carnet interactive` on a terminal. Debian: libedit-dev (`make deps` installs it).
#include <stdio.h>
#include <editline/readline.h>
