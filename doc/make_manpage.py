#!/usr/bin/env python3
"""Writes ftclos.1 from the help of the ftclos binary and of each of its
subcommands, so that the man page never says other than the program does.

Usage: make_manpage.py FTCLOS OUT.1"""
import re
import subprocess
import sys


def help_text(ftclos, *words):
    """`ftclos WORDS... --help`, with the binary's path shown as `ftclos`."""
    out = subprocess.run([ftclos, *words, "--help"], check=True, capture_output=True, text=True).stdout
    return out.replace(ftclos, "ftclos")


def subcommands(text):
    """The names listed under CLI11's "Subcommands:" heading."""
    section = text.split("Subcommands:", 1)
    if len(section) < 2:
        return []
    return [m[1] for m in re.finditer(r"^  (\S+)\s", section[1], re.M)]


def roff(text):
    """Plain text safe for roff: backslashes doubled, no line starts a request."""
    lines = []
    for line in text.replace("\\", "\\e").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def section(ftclos, words):
    """One subcommand (and its own subcommands) as a preformatted .SS block."""
    text = help_text(ftclos, *words)
    parts = [f".SS ftclos {' '.join(words)}", ".nf", roff(text.rstrip()), ".fi"]
    for sub in subcommands(text):
        parts.append(section(ftclos, [*words, sub]))
    return "\n".join(parts)


def main(ftclos, out_path):
    version = subprocess.run([ftclos, "--version"], check=True, capture_output=True, text=True).stdout.split()[-1]
    top = help_text(ftclos)
    summary = top.splitlines()[0].split(": ", 1)[-1]
    page = [
        f'.TH FTCLOS 1 "" "ftclos {version}" "User Commands"',
        ".SH NAME",
        f"ftclos \\- {roff(summary)}",
        ".SH SYNOPSIS",
        ".B ftclos",
        "[\\fB\\-q\\fR] \\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR] \\fITOPO\\fR ...",
        ".br",
        ".B ftclos \\-\\-version",
        ".SH DESCRIPTION",
        "Every subcommand reads the fabric as the positional TOPO, told apart by content: ibnetdiscover output"
        " (plain, \\fB\\-g\\fR, \\fB\\-p\\fR, or its binary \\fB\\-\\-cache\\fR file, read with libibnetdisc),"
        " iblinkinfo output, OpenSM's opensm-subnet.lst, or an ibsim net file. A terminal capture is repaired"
        " where that is unambiguous (CRLF, lost tabs, a banner, an ibnetdiscover warning or shell prompts"
        " around the output), each repair a warning. Tables (\\fBaudit\\fR, \\fBtrace\\fR) may be"
        " opensm-lfts.dump, OpenSM's opensm.fdbs or ibroute/dump_lfts output."
        " \\fB\\-\\-json FILE\\fR writes a JSON report (\\fB\\-\\fR: stdout) carrying \\fBschema_version\\fR"
        " and \\fBftclos_version\\fR; their JSON Schemas are installed in \\fIshare/doc/ftclos/schemas\\fR under"
        " the prefix (Debian: \\fI/usr/share/doc/ftclos/schemas\\fR).",
        ".nf",
        roff(top.rstrip()),
        ".fi",
        ".SH SUBCOMMANDS",
        *[section(ftclos, [sub]) for sub in subcommands(top)],
        ".SH EXIT STATUS",
        "0 done; 1 a finding that fails (unreachable pairs, loops, a fabric no family fits, a scheme that cannot"
        " route); 2 bad input or usage (the file, the line and what was expected; an empty topology or LFT file,"
        " outputs that name an input or each other), a failed write included, standard output's too."
        " README.md tabulates them per subcommand.",
        ".SH PATH BITS",
        "At LMC > 0 a host sends to base(d) + p(s) only when it knows its path bits p(s); every other host takes the"
        " SA's first PathRecord, offset 0, which the source-class schemes keep for D-mod-k (\\fB\\-\\-pathbits\\-users"
        " all\\fR where every job exports its bits). The plugin's \\fBpathbits_file\\fR holds one"
        " \\fB0x<port GUID> <bits>\\fR line per CA; a job prolog on each node, with the file in a shared directory,"
        " exports its line:",
        ".nf",
        "guid=$(ibstat -p | head -n 1)",
        "bits=$(awk -v g=\"$guid\" 'tolower($1) == tolower(g) { print $2 }' /shared/opensm/ftclos-pathbits)",
        "export UCX_IB_LID_PATH_BITS=${bits:-0}",
        ".fi",
        "\\fBftclos pathbits TOPO \\-\\-port GUID \\-\\-env\\fR prints the same line offline.",
        ".SH FILES",
        "The OpenSM routing-engine plugin is \\fIlibosmftclos.so\\fR (package opensm-ftclos); an annotated"
        " opensm.conf is \\fIshare/doc/ftclos/opensm-ftclos.conf\\fR under the install prefix (Debian: \\fI/usr/share/doc/opensm-ftclos/opensm-ftclos.conf\\fR).",
        ".SH SEE ALSO",
        "\\fBopensm\\fR(8), \\fBopensm\\-ftclos\\fR(8), \\fBibnetdiscover\\fR(8), \\fBibtracert\\fR(8),"
        " \\fBibsim\\fR(1)",
        "",
    ]
    with open(out_path, "w") as out:
        out.write("\n".join(page))


if __name__ == "__main__":
    main(*sys.argv[1:])
