#!/usr/bin/env python3
"""Makes Tests/Fixtures/Thunderbird: address book exports written by Thunderbird itself.

Run by hand, not by CI (the tests read the files this wrote; neither they nor CI need
Thunderbird). Needs Thunderbird (the Debian package; no X server, it runs headless) and
Python 3, nothing else:

    apt-get install -y thunderbird
    python3 Support/ThunderbirdFixtures/make-thunderbird-fixtures.py Tests/Fixtures/Thunderbird

It starts Thunderbird with a new, empty profile in a temporary directory (`--headless
--marionette --remote-allow-system-access -profile DIR -no-remote`), and drives it over the
Marionette protocol (length-prefixed JSON over TCP, the small client below) in the chrome
context to:

1. make an address book and add the contacts of `CONTACTS` below (invented for these tests,
   so the files carry no one's data and no licence), each given to Thunderbird as the vCard
   its contact editor keeps (`VCardUtils.vCardToAbCard`), plus the one property that is no
   longer in a vCard (`_AimScreenName`, the "Screen Name" column);
2. make a mailing list of three of them;
3. export the book with Thunderbird's own export code, the functions its "Export" menu calls
   (`AddrBookUtils.exportCardsToLDIF`, `exportCardsToDelimitedText` with "," and with a tab,
   `exportCardsToVCard`, given `directory.childCards` as `aboutAddressBook.js` does), each
   written with `IOUtils.writeUTF8` as `AddrBookUtils.exportCards` writes the UTF-8 choices.

The files are written as Thunderbird wrote them; nothing here edits them afterwards. The
vCards given to Thunderbird are written too (`thunderbird-input.vcf`), to show what went in.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

# The contacts, as vCard 4.0 (what Thunderbird's contact editor stores since version 102),
# with the "Screen Name" Thunderbird still exports from the card's own properties.
# Every phone type Thunderbird's editor offers (work, home, cell, fax, pager), home and work
# addresses, two emails and a third Thunderbird does not export, names in several scripts, a
# note with line breaks, a comma, quotes and a tab, values LDIF must write in base64 (non-ASCII,
# a leading space, a leading colon), a birthday without a year, one with only a year.
CONTACTS = [
    (
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "FN:Zoë Ångström-Łukasiewicz",
            "N:Ångström-Łukasiewicz;Zoë;Maria;Dr.;PhD",
            "NICKNAME:Zo",
            "EMAIL;PREF=1:zoe@example.org",
            "EMAIL;TYPE=work:zoe.angstrom@example.com",
            "EMAIL;TYPE=home:zo@example.net",
            "TEL;TYPE=work;VALUE=TEXT:+46 8 555 010 20",
            "TEL;TYPE=home;VALUE=TEXT:+46 8 555 010 21",
            "TEL;TYPE=cell;VALUE=TEXT:+46 70 555 01 22",
            "TEL;TYPE=fax;VALUE=TEXT:+46 8 555 010 23",
            "TEL;TYPE=pager;VALUE=TEXT:+46 74 555 01 24",
            "ADR;TYPE=home:;Lägenhet 1102;Östra Storgatan 7;Jönköping;Jönköpings län;553 21;Sverige",
            "ADR;TYPE=work:;Building C, floor 3;Forskningsvägen 1;Göteborg;;412 96;Sweden",
            "URL;TYPE=work:https://example.com/people/zoe",
            "URL;TYPE=home:https://zoe.example.net/",
            "BDAY;VALUE=DATE:19870314",
            "ANNIVERSARY;VALUE=DATE:20150620",
            "ORG:Ångström & Söner AB;Forskning\\; Utveckling",
            "TITLE:Senior Engineer, Optics",
            "ROLE:Team lead",
            "NOTE:First line of the note.\\nSecond line, with a comma and \"quotes\".\\n\tIndented by a tab.",
            "X-CUSTOM1:Custom one",
            "X-CUSTOM2:Ünïcödé custom",
            "X-CUSTOM3:3",
            "X-CUSTOM4:four, with a comma",
            "IMPP:xmpp:zoe@example.org",
            "CATEGORIES:Colleagues,Sweden",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b01",
            "END:VCARD",
            "",
        ]),
        {"_AimScreenName": "zoe_angstrom"},
    ),
    (
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "FN:山田 太郎",
            "N:山田;太郎;;;",
            "NICKNAME:たろう",
            "EMAIL;PREF=1:taro.yamada@example.jp",
            "TEL;TYPE=cell;VALUE=TEXT:+81 90-5555-0101",
            "ADR;TYPE=home:;;千代田1-1;千代田区;東京都;100-0001;日本",
            "BDAY;VALUE=DATE:--0704",
            "ORG:株式会社サンプル",
            "TITLE:課長",
            "NOTE:日本語のメモ。\\n二行目。",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b02",
            "END:VCARD",
            "",
        ]),
        {},
    ),
    (
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "FN:Ελένη Παπαδοπούλου",
            "N:Παπαδοπούλου;Ελένη;;;",
            "EMAIL;PREF=1:eleni@example.gr",
            "EMAIL:eleni.p@example.com",
            "TEL;VALUE=TEXT:+30 21 0555 0102",
            "ADR;TYPE=work:;;Οδός Ερμού 10;Αθήνα;;105 63;Ελλάδα",
            "BDAY;VALUE=DATE:1990",
            "NOTE: starts with a space",
            "X-CUSTOM1::colon first",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b03",
            "END:VCARD",
            "",
        ]),
        {},
    ),
    (
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "FN:Doe, John",
            "N:Doe;John;Q.;Mr.;Jr.",
            "EMAIL;PREF=1:john.doe@example.com",
            "TEL;TYPE=home;VALUE=TEXT:(555) 010-0199",
            "TEL;TYPE=home;VALUE=TEXT:(555) 010-0198",
            "ADR;TYPE=home:PO Box 42;;1 Main St.;Springfield;IL;62701;USA",
            "ORG:The \"Quoted\" Company, Inc.",
            "TITLE:Vice President; Sales",
            "URL:https://example.com/?q=john,doe&x=\"1\"",
            "BDAY;VALUE=DATE:19700101",
            "NOTE:A note that is long enough to pass the seventy-six characters after which an LDIF writer might fold its line, and then some more.",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b04",
            "END:VCARD",
            "",
        ]),
        {},
    ),
    (
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "FN:عمر الخيام",
            "N:الخيام;عمر;;;",
            "NICKNAME:🦊 Fox",
            "EMAIL;PREF=1:omar@example.org",
            "TEL;TYPE=work;VALUE=TEXT:+98 21 5555 0103",
            "ADR;TYPE=work:;;خیابان ۱;نیشابور;;;ایران",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b05",
            "END:VCARD",
            "",
        ]),
        {},
    ),
    (
        # Only an email, as Thunderbird's "Collected Addresses" keeps many.
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "EMAIL;PREF=1:only.an.email@example.com",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b06",
            "END:VCARD",
            "",
        ]),
        {},
    ),
    (
        "\r\n".join([
            "BEGIN:VCARD",
            "VERSION:4.0",
            "FN:Renée O'Brien",
            "N:O'Brien;Renée;;;",
            "EMAIL;PREF=1:renee@example.ie",
            "TEL;TYPE=pager;VALUE=TEXT:+353 1 555 0104",
            "TEL;TYPE=fax;VALUE=TEXT:+353 1 555 0105",
            "ORG:;Only a department",
            "UID:6c1f3d0e-2b7a-4c51-9a7e-0d1e2f3a4b07",
            "END:VCARD",
            "",
        ]),
        {"_AimScreenName": "renee.ob"},
    ),
]

# The mailing list: its name, nickname, description, and the indexes in CONTACTS of its members.
MAILING_LIST = ("Projekt Ω team", "omega", "Everyone on Projekt Ω\nsecond line", [0, 3, 6])

SCRIPT = r"""
const [contacts, mailingList, outputDirectory] = arguments;
const { MailServices } = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
const { VCardUtils } = ChromeUtils.importESModule("resource:///modules/VCardUtils.sys.mjs");
const { AddrBookUtils } = ChromeUtils.importESModule("resource:///modules/AddrBookUtils.sys.mjs");

const prefId = MailServices.ab.newAddressBook("Carnet fixtures", "", Ci.nsIAbManager.JS_DIRECTORY_TYPE);
const book = MailServices.ab.getDirectoryFromId(prefId);
const added = [];
for (const [vCard, properties] of contacts) {
  const card = VCardUtils.vCardToAbCard(vCard);
  for (const [name, value] of Object.entries(properties)) {
    card.setProperty(name, value);
  }
  added.push(book.addCard(card));
}
const [listName, listNickName, listDescription, members] = mailingList;
let list = Cc["@mozilla.org/addressbook/directoryproperty;1"].createInstance(Ci.nsIAbDirectory);
list.isMailList = true;
list.dirName = listName;
list.listNickName = listNickName;
list.description = listDescription;
list = book.addMailList(list);
for (const index of members) {
  list.addCard(added[index]);
}

const cards = book.childCards;
const outputs = {
  "thunderbird.ldif": AddrBookUtils.exportCardsToLDIF(cards),
  "thunderbird.csv": AddrBookUtils.exportCardsToDelimitedText(cards, ","),
  "thunderbird.tab": AddrBookUtils.exportCardsToDelimitedText(cards, "\t"),
  "thunderbird.vcf": AddrBookUtils.exportCardsToVCard(cards),
};
for (const [name, output] of Object.entries(outputs)) {
  await IOUtils.writeUTF8(PathUtils.join(outputDirectory, name), output);
}
return {
  version: Services.appinfo.version,
  buildID: Services.appinfo.appBuildID,
  cards: cards.length,
};
"""


class Marionette:
    """The Marionette protocol: each message is `length:json`; a command is
    `[0, id, name, parameters]` and its answer `[1, id, error, result]`."""

    def __init__(self, port):
        deadline = time.time() + 120
        while True:
            try:
                self.socket = socket.create_connection(("127.0.0.1", port), timeout=300)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        self.buffer = b""
        self.next_id = 0
        print("marionette:", self.receive(), file=sys.stderr)

    def receive(self):
        while b":" not in self.buffer:
            self.buffer += self.recv()
        length, _, rest = self.buffer.partition(b":")
        length = int(length)
        while len(rest) < length:
            rest += self.recv()
        self.buffer = rest[length:]
        return json.loads(rest[:length].decode("utf-8"))

    def recv(self):
        data = self.socket.recv(65536)
        if not data:
            raise RuntimeError("Marionette closed the connection")
        return data

    def command(self, name, parameters=None):
        self.next_id += 1
        message = json.dumps([0, self.next_id, name, parameters or {}]).encode("utf-8")
        self.socket.sendall(str(len(message)).encode() + b":" + message)
        kind, message_id, error, result = self.receive()
        if error:
            raise RuntimeError(f"{name}: {error}")
        return result


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-thunderbird-fixtures.py OUTPUT-DIRECTORY")
    output = os.path.abspath(sys.argv[1])
    os.makedirs(output, exist_ok=True)
    work = tempfile.mkdtemp(prefix="carnet-thunderbird-")
    profile = os.path.join(work, "profile")
    os.makedirs(profile)
    port = free_port()
    prefs = {
        "marionette.port": port,
        # No first-run screens, no update checks, no network.
        "mail.provider.enabled": False,
        "mail.shell.checkDefaultClient": False,
        "mailnews.start_page.enabled": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "app.update.disabledForTesting": True,
        "browser.startup.homepage_override.mstone": "ignore",
    }
    with open(os.path.join(profile, "user.js"), "w") as user:
        for name, value in prefs.items():
            user.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
    environment = dict(os.environ, HOME=work, LANG="C.UTF-8", MOZ_HEADLESS="1")
    thunderbird = subprocess.Popen(
        ["thunderbird", "--headless", "--marionette", "--remote-allow-system-access", "-profile", profile, "-no-remote"],
        env=environment, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "thunderbird.log"), "w"))
    try:
        client = Marionette(port)
        client.command("WebDriver:NewSession", {"strictFileInteractability": True})
        client.command("Marionette:SetContext", {"value": "chrome"})
        result = client.command("WebDriver:ExecuteScript", {
            "script": "return (async () => {" + SCRIPT + "})();",
            "args": [[[vcard, extra] for vcard, extra in CONTACTS], list(MAILING_LIST), output],
            "scriptTimeout": 120000,
        })
        print(json.dumps(result["value"]))
        with open(os.path.join(output, "thunderbird-input.vcf"), "w", newline="") as given:
            given.write("".join(vcard for vcard, _ in CONTACTS))
        try:
            client.command("Marionette:Quit", {"flags": ["eForceQuit"]})
        except (RuntimeError, OSError):
            pass
        thunderbird.wait(timeout=60)
    finally:
        if thunderbird.poll() is None:
            thunderbird.terminate()
            thunderbird.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
