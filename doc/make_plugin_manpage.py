#!/usr/bin/env python3
"""Writes opensm-ftclos.8, the OpenSM plugin's man page, from plugin/README.md
(every option, every ERR number, path bits, LMC, QoS), so that the page and
the README never disagree. The README's Building and Tests sections and its
note on the source files are for developers and stay out.

Usage: make_plugin_manpage.py README.md VERSION OUT.8"""
import pathlib
import re
import sys

LEFT_OUT = {"Building", "Tests"}


def inline(text):
    """Markdown's inline marks as roff fonts; roff's escape character escaped."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"\*\*(.+?)\*\*", r"\\fB\1\\fR", text)
    # Code may break after _ / , = (an option or path in a narrow table column).
    text = re.sub(r"`([^`]+)`", lambda m: "\\fB" + re.sub(r"([_/,=])", r"\1\\:", m.group(1)) + "\\fR", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\\fI\1\\fR", text)
    return text


def safe(line):
    """A text line no roff request starts by accident."""
    return "\\&" + line if line.startswith((".", "'")) else line


def table(rows):
    """A Markdown table as a tagged list, which reads better than narrow
    columns: per row the first cell as the tag ("ERR 01" in the ERR table),
    then "header: cell" for each other one."""
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    header, body = cells[0], cells[2:]
    out = []
    for row in body:
        tag = f"\\fBERR {inline(row[0])}\\fR" if header[0] == "ERR" else inline(row[0])
        parts = [f"{inline(h)}: {inline(c)}" for h, c in zip(header[1:], row[1:])]
        out.extend([".TP", tag, safe("; ".join(parts))])
    return out


def convert(markdown):
    out, paragraph, skipping = [], [], False
    lines = markdown.splitlines()

    def flush():
        if paragraph:
            text = " ".join(paragraph)
            if not text.startswith("Files: "):  # the developers' map of the sources
                out.extend([".PP", safe(inline(text))])
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        heading = re.match(r"^(#{1,3}) (.*)", line)
        if heading:
            flush()
            level, title = len(heading.group(1)), heading.group(2)
            if level == 1:
                i += 1
                continue
            skipping = level == 2 and title in LEFT_OUT
            if not skipping:
                out.append((".SH " if level == 2 else ".SS ") + '"' + inline(title).upper() * (level == 2)
                           + inline(title) * (level == 3) + '"')
        elif skipping:
            pass
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            out.extend(table(rows))
            continue
        elif line.startswith("    "):
            flush()
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out.extend([".PP", ".RS 4", ".nf", *(safe(b.replace("\\", "\\e")) for b in block), ".fi", ".RE"])
            continue
        elif line.startswith("- "):
            flush()
            item = [line[2:]]
            i += 1
            while i < len(lines) and lines[i].startswith("  ") and not lines[i].startswith("    |"):
                item.append(lines[i].strip())
                i += 1
            out.extend([".IP \\(bu 2", safe(inline(" ".join(item)))])
            continue
        elif not line.strip():
            flush()
        else:
            paragraph.append(line.strip())
        i += 1
    flush()
    return out


def main(readme, version, out_path):
    body = convert(open(readme).read())
    page = [
        "'\\\" t",
        f'.TH OPENSM-FTCLOS 8 "" "ftclos {version}" "OpenSM plugins"',
        ".ad l",  # ragged right: the tables' narrow columns cannot be justified
        ".nh",
        ".SH NAME",
        "opensm-ftclos \\- the ftclos routing engine for OpenSM (libosmftclos.so, event plugin osmftclos)",
        ".SH SYNOPSIS",
        "In \\fIopensm.conf\\fR:",
        ".PP",
        ".nf",
        "event_plugin_name osmftclos",
        "event_plugin_options scheme=auto pathbits_file=ftclos-pathbits",
        "routing_engine ftclos,updn",
        "lmc 2",
        "qos TRUE",
        ".fi",
        ".SH DESCRIPTION",
        *body,
        ".SH SEE ALSO",
        "\\fBopensm\\fR(8), \\fBftclos\\fR(1), \\fBibnetdiscover\\fR(8)",
        "",
    ]
    pathlib.Path(out_path).write_text("\n".join(page))


if __name__ == "__main__":
    main(*sys.argv[1:])
