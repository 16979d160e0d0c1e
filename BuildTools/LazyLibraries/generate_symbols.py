#!/usr/bin/env python3
"""Writes Sources/CLazyLibraries/symbols.def: every libcurl and libxml2 function that the
toolchain's static Foundation (URLSession's and XMLParser's archives) calls, each with its index
in the trampoline table and its library (0: libcurl, 1: libxml2). Run it after a toolchain update;
a function missing from the list makes `make release` fail to link (undefined reference), which
is the sign to run it. xmlFree, a variable, is handled by lazy.c itself.

    BuildTools/LazyLibraries/generate_symbols.py [/opt/swift/usr/lib/swift_static/linux]
"""
import subprocess
import sys

directory = sys.argv[1] if len(sys.argv) > 1 else "/opt/swift/usr/lib/swift_static/linux"
archives = [f"{directory}/lib{name}.a" for name in
            ["FoundationNetworking", "_CFURLSessionInterface", "FoundationXML", "_CFXMLInterface"]]
undefined = subprocess.run(["nm", "--undefined-only", *archives], check=True, capture_output=True, text=True).stdout
names = sorted({line.split()[-1] for line in undefined.splitlines() if line.strip().startswith("U ")})
curl = [n for n in names if n.startswith("curl_")]
xml = [n for n in names if (n.startswith("xml") or n.startswith("html")) and n != "xmlFree"]
assert curl and xml, "no libcurl or libxml2 function found: is this the static Foundation?"
lines = [f"LAZY({i}, {library}, {name})" for i, (library, name) in enumerate([(0, n) for n in curl] + [(1, n) for n in xml])]
open("Sources/CLazyLibraries/symbols.def", "w").write("\n".join(lines) + "\n")
print(f"{len(curl)} libcurl and {len(xml)} libxml2 functions")
