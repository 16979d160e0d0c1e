#!/usr/bin/env python3
"""Writes Sources/CarnetModels/PhoneMetadata.swift: what libphonenumber's `parse` reads of its
metadata, for PhoneNormalForm (Sources/CarnetModels/PhoneNormalForm.swift), from the metadata as
python-phonenumbers ships it.

NOTICE: the generated file holds data of libphonenumber (Copyright (C) 2009 The Libphonenumber
Authors), as shipped by python-phonenumbers 9.0.43 (David Drysdale), both under the Apache
License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0).

Usage, from the package root, after `make deps` (which installs the pinned package into
.build/pypackages, looked for there first):

    python3 Scripts/phone-metadata.py [OUTPUT]

OUTPUT defaults to Sources/CarnetModels/PhoneMetadata.swift. Tests/CarnetModelsTests/
PhoneNormalFormTests.swift runs this script to a temporary file and expects the committed file
byte for byte.

One line per region, in the order of libphonenumber's country code table (by country code, then
its regions with the code's main region first), tab-separated:

    region  country code  main  international prefix  national prefix for parsing
    national prefix transform rule  general national number pattern  possible lengths
    local-only lengths

Every geographic region of phonenumbers.SUPPORTED_REGIONS, and one line with region "001" for
each non-geographic entity (+800, +808...) of COUNTRY_CODES_FOR_NON_GEO_REGIONS. `main` is 1 for
the region `region_code_for_country_code` gives for the code (the one whose metadata `parse`
uses for a number written with that code), else 0. An empty field is a value the metadata does
not have. Nothing else of the metadata is read by `parse` (phonenumberutil.py): not the national
prefix used for formatting, not the leading digits that tell regions sharing a code apart (that
is `region_code_for_number`, not `parse`), not the formats or the number types' patterns.
"""

import os
import re
import sys

VERSION = "9.0.43"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(ROOT, "Sources", "CarnetModels", "PhoneMetadata.swift")

# The pinned package, as `make deps` installs it, before any other on the path.
sys.path.insert(0, os.path.join(ROOT, ".build", "pypackages"))

try:
    import phonenumbers
    from phonenumbers import phonemetadata
    from phonenumbers.phonenumberutil import COUNTRY_CODE_TO_REGION_CODE
except ImportError:
    sys.exit("phone-metadata.py: phonenumbers is not installed: `make deps` installs it into .build/pypackages")

try:
    import re._parser as sre_parse  # Python 3.11 and later
except ImportError:  # pragma: no cover
    import sre_parse


def fail(message):
    sys.exit("phone-metadata.py: " + message)


# What PhoneNormalForm's pattern matcher (PhonePattern, Sources/CarnetModels/PhonePattern.swift)
# implements of Python's `re`: literals, classes of literals, ranges and \d, groups, alternation,
# greedy repetition and `$`. A metadata pattern using anything else stops the generator, rather
# than reaching a matcher that would read it differently. (It also takes `.`, `^` and lazy
# repetition, for patterns of phonenumberutil.py itself.)
ALLOWED_OPS = {"LITERAL", "IN", "SUBPATTERN", "BRANCH", "MAX_REPEAT", "AT"}
ALLOWED_IN = {"LITERAL", "RANGE", "CATEGORY"}


def check_pattern(pattern, what):
    def walk(tree):
        for op, av in tree:
            name = str(op)
            if name not in ALLOWED_OPS:
                fail("%s: %r uses %s, which PhoneNormalForm's matcher does not implement" % (what, pattern, name))
            if name == "IN":
                for item, value in av:
                    if str(item) not in ALLOWED_IN or (str(item) == "CATEGORY" and str(value) != "CATEGORY_DIGIT"):
                        fail("%s: %r uses %s in a class" % (what, pattern, item))
            elif name == "AT" and str(av) != "AT_END":
                fail("%s: %r uses the anchor %s" % (what, pattern, av))
            elif name == "SUBPATTERN":
                if av[1] or av[2]:
                    fail("%s: %r sets flags in a group" % (what, pattern))
                walk(av[3])
            elif name == "BRANCH":
                for branch in av[1]:
                    walk(branch)
            elif name == "MAX_REPEAT":
                low, high, body = av
                # A repeated body that can match nothing is where Python's engine stops a loop
                # that PhoneNormalForm's would not (it has no such bodies to stop).
                if high > 1 and body.getwidth()[0] == 0:
                    fail("%s: %r repeats something that can be empty" % (what, pattern))
                walk(body)
    walk(sre_parse.parse(pattern))


def field(value, what):
    if value is None:
        return ""
    # In the raw string literal a tab or a line break would end the field or the line, `"""#`
    # the literal, and `\\#(` would interpolate.
    if "\t" in value or "\n" in value or '"#' in value or "\\#" in value:
        fail("%s: %r cannot be written in the table" % (what, value))
    return value


def lengths(values):
    return ",".join(str(n) for n in values)


def line(region, code, main, metadata):
    what = "%s (+%d)" % (region, code)
    if metadata is None:
        fail("%s: no metadata" % what)
    if metadata.country_code != code:
        fail("%s: metadata says +%d" % (what, metadata.country_code))
    general = metadata.general_desc
    possible = list(general.possible_length)
    local = list(general.possible_length_local_only)
    # `_test_number_length` reads the first and last possible lengths as the shortest and longest.
    if not possible or possible != sorted(possible) or local != sorted(local):
        fail("%s: possible lengths %r, %r" % (what, possible, local))
    if metadata.international_prefix == "":
        fail("%s: an empty international prefix (matches everything, unlike none)" % what)
    for name in ("international_prefix", "national_prefix_for_parsing"):
        if getattr(metadata, name):
            check_pattern(getattr(metadata, name), "%s %s" % (what, name))
    if general.national_number_pattern:
        check_pattern(general.national_number_pattern, what + " national_number_pattern")
    rule = metadata.national_prefix_transform_rule
    if rule:
        # `_maybe_strip_national_prefix_carrier_code` reads the last group of the prefix pattern
        # when there is a rule; a rule with no group there would raise IndexError in Python.
        groups = sre_parse.parse(metadata.national_prefix_for_parsing or "").state.groups - 1
        if groups < 1:
            fail("%s: a transform rule with no group in the national prefix pattern" % what)
        # PhoneNormalForm substitutes digits and one group reference, as `re.sub` does these.
        form = re.fullmatch(r"[0-9]*\\([1-9])", rule)
        if form is None or int(form.group(1)) > groups:
            fail("%s: transform rule %r" % (what, rule))
    return "\t".join([
        region,
        str(code),
        "1" if main else "0",
        field(metadata.international_prefix, what),
        field(metadata.national_prefix_for_parsing, what),
        field(rule, what),
        field(general.national_number_pattern, what),
        lengths(possible),
        lengths(local),
    ])


def table():
    lines = []
    geographic = set()
    non_geographic = set()
    for code in sorted(COUNTRY_CODE_TO_REGION_CODE):
        regions = COUNTRY_CODE_TO_REGION_CODE[code]
        for index, region in enumerate(regions):
            main = index == 0  # region_code_for_country_code
            if region == phonemetadata.REGION_CODE_FOR_NON_GEO_ENTITY:
                if len(regions) != 1:
                    fail("+%d: a non-geographic entity sharing its code" % code)
                non_geographic.add(code)
                lines.append(line(region, code, main, phonemetadata.PhoneMetadata.metadata_for_nongeo_region(code)))
            else:
                metadata = phonemetadata.PhoneMetadata.metadata_for_region(region)
                if len(regions) > 1 and bool(metadata and metadata.main_country_for_code) != main:
                    fail("%s: main_country_for_code disagrees with the country code table" % region)
                geographic.add(region)
                lines.append(line(region, code, main, metadata))
    if geographic != set(phonenumbers.SUPPORTED_REGIONS):
        fail("the country code table's regions are not SUPPORTED_REGIONS")
    if non_geographic != set(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        fail("the country code table's non-geographic codes are not COUNTRY_CODES_FOR_NON_GEO_REGIONS")
    return lines


HEADER = """\
// Generated by Scripts/phone-metadata.py from libphonenumber's metadata as shipped by
// python-phonenumbers {version}: do not edit. libphonenumber: Copyright (C) 2009 The
// Libphonenumber Authors; python-phonenumbers: David Drysdale; both under the Apache License,
// Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0).
//
// To regenerate (for another release, change the version in the Makefile and in the script):
//     make deps && python3 Scripts/phone-metadata.py
// Tests/CarnetModelsTests/PhoneNormalFormTests.swift checks that this file is what the script writes.

/// What libphonenumber's `parse` reads of its metadata, one line per region ({count} lines:
/// {geographic} regions and {non_geographic} non-geographic entities, region "001"), in the order
/// of its country code table. Fields, tab-separated (empty when the metadata has no value):
/// region, country code, main (1 for the region `region_code_for_country_code` gives for the
/// code), international prefix, national prefix for parsing, national prefix transform rule,
/// general national number pattern, possible lengths, local-only lengths. Read once, at the first
/// use of `PhoneNormalForm` (PhoneRegions in PhoneNormalForm.swift).
enum PhoneMetadata {{
    static let table = #\"\"\"
"""

FOOTER = '''\
"""#
}
'''


def main(argv):
    if len(argv) > 2:
        sys.exit("usage: phone-metadata.py [OUTPUT]")
    if phonenumbers.__version__ != VERSION:
        fail("phonenumbers %s is installed where %s is pinned: `make deps` installs the pinned one into .build/pypackages"
             % (phonenumbers.__version__, VERSION))
    lines = table()
    text = HEADER.format(version=VERSION, count=len(lines),
                         geographic=len(phonenumbers.SUPPORTED_REGIONS),
                         non_geographic=len(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS))
    text += "".join(l + "\n" for l in lines) + FOOTER
    output = argv[1] if len(argv) > 1 else DEFAULT_OUTPUT
    with open(output, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)


if __name__ == "__main__":
    main(sys.argv)
