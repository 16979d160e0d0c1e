# Carnet. `make run` builds and opens the default address book; `make test` runs every test.
SWIFT ?= swift
CONFIG ?= debug
BIN = .build/$(CONFIG)/carnet

.PHONY: all deps bench-deps build run test test-fast release static-libs bench bench-import-baseline stress docs check-recipes clean

all: build

# System packages the build and the tests need (libsqlite3 headers for GRDB, the sqlite3 CLI
# that tests and the benchmark compare with, libedit headers for line editing in `carnet
# interactive`, Radicale, the CardDAV server the sync tests and benchmark start on loopback,
# Xandikos, the second server the sync tests run against, vdirsyncer, khard and python3-vobject,
# the other client a sync test drives, abook, which reads Carnet's LDIF in a test, neomutt and
# aerc, whose address completion a test drives, and openssl, which makes the self-signed certificate of the sync's TLS test, and the curl command,
# which a sync test uses as another CardDAV client). libcurl itself is loaded by `carnet sync` at
# run time: no header is needed to build.
# Installed only when missing, with apt-get on Linux (Debian, Ubuntu: CI installs everything this
# way). Elsewhere (macOS, a Linux without apt-get) nothing is installed: `deps` names what is
# missing and goes on, and stops only when a header the build needs cannot be found.
APT_GET := $(shell [ "$$(uname -s)" = Linux ] && command -v apt-get 2>/dev/null)

# python-phonenumbers (Google's libphonenumber in Python, Apache-2.0), which
# Scripts/phone-metadata.py reads to write Sources/CarnetModels/PhoneMetadata.swift, and whose answers
# Tests/CarnetModelsTests/PhoneNormalFormTests.swift holds PhoneNormalForm to. Pure Python: installed
# with pip into .build/pypackages (the tests run it with PYTHONPATH), only when this version is missing.
PHONENUMBERS_VERSION = 9.0.43
PYPACKAGES = .build/pypackages
define install_phonenumbers
	@if [ ! -d $(PYPACKAGES)/phonenumbers-$(PHONENUMBERS_VERSION).dist-info ]; then \
		echo "Installing phonenumbers $(PHONENUMBERS_VERSION) into $(PYPACKAGES)..."; \
		rm -rf $(PYPACKAGES) && \
		python3 -m pip install --quiet --target $(PYPACKAGES) phonenumbers==$(PHONENUMBERS_VERSION); \
	fi
endef

ifneq ($(APT_GET),)
deps:
	@if ! command -v sqlite3 >/dev/null 2>&1 || [ ! -f /usr/include/sqlite3.h ]; then \
		echo "Installing libsqlite3-dev and sqlite3..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libsqlite3-dev sqlite3; \
	fi
	@if [ ! -f /usr/include/editline/readline.h ]; then \
		echo "Installing libedit-dev..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libedit-dev; \
	fi
	@if [ ! -x /usr/bin/openssl ] || [ ! -x /usr/bin/curl ] || ! ls /usr/lib/*/libcurl.so.4 >/dev/null 2>&1; then \
		echo "Installing openssl, curl and libcurl4..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq openssl curl libcurl4; \
	fi
	@if [ ! -x /usr/bin/radicale ]; then \
		echo "Installing radicale..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq radicale; \
	fi
	@if [ ! -x /usr/bin/xandikos ] || [ ! -x /usr/bin/vdirsyncer ] || [ ! -x /usr/bin/khard ] || ! /usr/bin/python3 -c 'import vobject' 2>/dev/null; then \
		echo "Installing xandikos, vdirsyncer, khard and python3-vobject..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq xandikos vdirsyncer khard python3-vobject; \
	fi
	@if [ ! -x /usr/bin/abook ]; then \
		echo "Installing abook (a test reads Carnet's LDIF with it)..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq abook; \
	fi
	@if ! ls /usr/lib/*/libncursesw.so.6 /lib/*/libncursesw.so.6 >/dev/null 2>&1 || [ ! -x /usr/bin/tmux ] || [ ! -x /usr/bin/script ]; then \
		echo "Installing libncursesw6 (the full-screen interface), tmux and script (its tests' terminals)..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libncursesw6 tmux bsdutils; \
	fi
	@if [ ! -x /usr/bin/neomutt ] || [ ! -x /usr/bin/aerc ]; then \
		echo "Installing neomutt and aerc (the mail clients whose completion a test drives)..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq neomutt aerc; \
	fi
	$(install_phonenumbers)
else
# The headers are looked for where the C compiler looks (on macOS, in the SDK, which has both).
deps:
	@for header in sqlite3.h editline/readline.h; do \
		printf '#include <%s>\n' $$header | $${CC:-cc} -E -x c - >/dev/null 2>&1 || { \
			echo "make deps: <$$header> not found: install SQLite's and libedit's headers (Homebrew: brew install sqlite libedit)"; \
			exit 1; }; \
	done
	@missing=; \
	for tool in sqlite3 openssl curl radicale xandikos vdirsyncer khard abook tmux neomutt aerc; do \
		command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; \
	done; \
	python3 -c 'import vobject' 2>/dev/null || missing="$$missing python3-vobject"; \
	if [ -n "$$missing" ]; then \
		echo "make deps: not installed:$$missing (the build does not need them; the tests and the benchmark that"; \
		echo "  start them do: e.g. brew install sqlite curl openssl abook, pip3 install radicale xandikos vdirsyncer khard vobject)"; \
	fi
	$(install_phonenumbers)
endif

# What only the benchmark needs. abook, the C address book `carnet query` is measured against,
# is installed by deps (a test reads Carnet's LDIF with it).
bench-deps: deps

build: deps
	$(SWIFT) build -c $(CONFIG) --product carnet

run: build
	$(BIN) $(ARGS)

# The embedding example is built and run first (it must keep compiling against the public API,
# and docs/embedding.md shows its lines), with the `carnet` just built as the other process whose
# change its live screen must show; then every test; the test runner's summary is the last thing
# printed. On Linux the tests run as two processes side by side (Support/test-in-two.sh says
# why). The example is its own package, depending on this one by path as an app would; built
# in this package's build directory it reuses every module just compiled (GRDB's and Carnet's)
# and compiles only its own file, where a build directory of its own compiled them all again.
#
# The import check fails the build when a target imports a module of this package that is not in
# its dependency graph at all. SwiftPM (6.3) accepts what a target reaches through a dependency,
# and skips every target that depends on one with plugin-generated sources (CarnetStorage embeds
# migrations/), so the arrows above CarnetModels stay Tests/ArchitectureTests' to check.
test: deps
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check=error
	$(SWIFT) build --package-path Examples/EmbedCarnet --scratch-path $(CURDIR)/.build
	@scratch=$$(mktemp -d) && out=$$(mktemp) && \
		{ TMPDIR=$$scratch CARNET=$(CURDIR)/.build/debug/carnet .build/debug/EmbedCarnet >$$out; status=$$?; cat $$out; } && \
		test $$status = 0 && { grep -q '^Added elsewhere: .*Grace Hopper' $$out || { echo "EmbedCarnet's screen never showed the other process's contact"; exit 1; }; } && \
		rm $$out && { rmdir $$scratch 2>/dev/null || { echo "EmbedCarnet left files behind:"; ls -lA $$scratch; exit 1; }; }
	@if [ "$$(uname -s)" = Linux ] && [ -x .build/debug/CarnetPackageTests.xctest ]; then \
		CARNET_TEST_TOOLS=required Support/test-in-two.sh .build/debug/CarnetPackageTests.xctest CLITests; \
	else \
		CARNET_TEST_TOOLS=required $(SWIFT) test --skip-build; \
	fi

# The loop while working: the test targets below the CLI, with no server and no program started
# (CARNET_TEST_TOOLS=none skips each test that starts one, saying so). The whole suite is
# `make test`. One suite: `swift test --skip-build --filter HistoryTests` (more in CONTRIBUTING.md).
FAST_TESTS = CarnetModelsTests|CarnetInterchangeTests|CarnetStorageTests|CarnetStateTests|CarnetViewModelsTests|ArchitectureTests
# The storage tests are half the loop's time: all but one of their suites run in one process,
# everything else in the other, so both cores work (Support/test-in-two.sh).
FAST_FIRST = CarnetStorageTests\.(?!HistoryTests\b)
test-fast:
	$(SWIFT) build --build-tests
	@if [ "$$(uname -s)" = Linux ] && [ -x .build/debug/CarnetPackageTests.xctest ]; then \
		CARNET_TEST_TOOLS=none Support/test-in-two.sh .build/debug/CarnetPackageTests.xctest '$(FAST_FIRST)' '$(FAST_TESTS)'; \
	else \
		CARNET_TEST_TOOLS=none $(SWIFT) test --skip-build --filter '$(FAST_TESTS)'; \
	fi

# Release builds link the Swift runtime in (starts in 10 ms instead of 16 and runs on a machine
# without Swift) into a position-dependent executable: a PIE of this size (97 MB, Foundation and
# ICU inside) has 87,000 relative relocations for the loader to apply at every start, dirtying
# 220 more pages; without them `carnet --version` starts sooner (docs/performance.md). The shared libraries (libc, libm, libgcc_s) are still placed at random.
# RELEASE_FLAGS="--static-swift-stdlib" builds a PIE again.
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie

# On Linux, release builds also take SQLite, libstdc++ and libedit (with libtinfo, libbsd and libmd,
# which it calls) from the system's static archives, where the -dev packages `make deps` installs
# put them. Each shared library is mapped and relocated at every start of every command, and a
# mail client starts `carnet query` at every completion: libstdc++ and libsqlite3 alone had the
# loader look up 3,200 symbols, most of them their calls to themselves (docs/performance.md). The
# archives are linked into .build/static-libs, which the linker searches before the system's
# directories; a library without an archive stays shared. The price: a fix to the system's SQLite
# or libedit reaches carnet when it is built again. STATIC_LINK_FLAGS= links them all shared.
STATIC_LIBS_DIR = $(CURDIR)/.build/static-libs
STATIC_ARCHIVES := $(shell [ "$$(uname -s)" = Linux ] && for lib in sqlite3 stdc++ edit tinfo bsd md; do \
	f=$$($${CC:-cc} -print-file-name=lib$$lib.a 2>/dev/null); [ -f "$$f" ] && echo "$$f"; done)
# libedit.a names the libraries it calls no more than any archive does: they are given here.
STATIC_LINK_FLAGS ?= $(if $(STATIC_ARCHIVES),-Xswiftc -L$(STATIC_LIBS_DIR)) $(if $(filter %/libedit.a,$(STATIC_ARCHIVES)),\
	$(foreach lib,tinfo bsd md,$(if $(filter %/lib$(lib).a,$(STATIC_ARCHIVES)),-Xlinker -l$(lib))))

static-libs:
	@rm -rf $(STATIC_LIBS_DIR) && mkdir -p $(STATIC_LIBS_DIR)
	@for f in $(STATIC_ARCHIVES); do ln -s "$$f" $(STATIC_LIBS_DIR)/; done

# The binary to install. Copy .build/release/carnet anywhere on your PATH.
release: deps static-libs
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product carnet

# Release build, as shipped; prints medians and Carnet/raw ratios. BENCH_ARGS=--quick for a short run.
bench: bench-deps static-libs
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product CarnetBenchmarks
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product carnet
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product Hello
	.build/release/CarnetBenchmarks --carnet .build/release/carnet --hello .build/release/Hello $(BENCH_ARGS)

# The import-against-the-release-before row: `carnet import FILE.vcf` of this tree against the `carnet` of IMPORT_BASE (the
# last commit before lossless interchange), both release builds with the same flags, the same
# file, alternating in one run. The baseline's source is unpacked from git into .build-baseline/.
IMPORT_BASE ?= d94a2b9
IMPORT_N ?= 100000
bench-import-baseline: deps static-libs
	rm -rf .build-baseline && mkdir -p .build-baseline/src
	git archive $(IMPORT_BASE) | tar -x -C .build-baseline/src
	cd .build-baseline/src && $(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product carnet
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product CarnetBenchmarks
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(STATIC_LINK_FLAGS) --product carnet
	.build/release/CarnetBenchmarks --import-baseline .build-baseline/src/.build/release/carnet --carnet .build/release/carnet --n $(IMPORT_N)

# The long reliability run (docs/database.md, durability): 1,000 SIGKILLs, then 8 processes x 200 edits.
stress: deps
	$(SWIFT) build --product carnet
	$(SWIFT) build --product carnet-stress
	.build/debug/carnet-stress crash --carnet .build/debug/carnet --kills 1000
	.build/debug/carnet-stress concurrent --carnet .build/debug/carnet --processes 8 --edits 200

# The recipes of docs/architecture.md (a field, a command, a file format, a server quirk) followed
# as written in a scratch copy of the working tree, built, and the suites each names run: PASS or
# FAIL per recipe. Not part of `test` or CI: the copy is a build of its own (10-20 minutes the
# first time; it is kept in .build/check-recipes, so the next run builds what changed).
check-recipes: deps
	SWIFT="$(SWIFT)" Scripts/check-recipes.sh

# The DocC documentation of the library modules (each module's catalog in Sources/<Module>/*.docc,
# and the Embedding article in CarnetState's, beside the StateController the composition root makes), one archive in .build/docs/Carnet.doccarchive;
# a warning fails it. The swift-docc-plugin is a dependency only when CARNET_DOCS is set, so the
# build and the tests neither fetch nor resolve it.
DOC_TARGETS = CarnetModels CarnetInterchange CarnetStorage CarnetSync CarnetState CarnetViewModels
docs:
	mkdir -p .build/docs && rm -rf .build/docs/Carnet.doccarchive
	CARNET_DOCS=1 $(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
		$(foreach target,$(DOC_TARGETS),--target $(target)) --enable-experimental-combined-documentation \
		--warnings-as-errors --output-path .build/docs/Carnet.doccarchive
	@test -d .build/docs/Carnet.doccarchive  # the plugin reports success even when the merge fails

clean:
	rm -rf .build
