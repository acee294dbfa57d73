"""How a web server should serve the built site, stated once, and from it the configuration of
nginx, Caddy and Apache, and the files static hosts read.

The facts (this module's tables, and the Content-Security-Policy of :mod:`sitegen.csp`):

- ``TYPES``: the media type of every kind of file in the site (``.wasm`` must be
  ``application/wasm`` for the browser to compile it as it downloads, ``.mjs`` JavaScript for
  the worker to import it, ``.webmanifest`` ``application/manifest+json``);
- the precompressed copies (:mod:`sitegen.compress`): ``<file>.br`` sent as the file with
  ``Content-Encoding: br`` to a browser that accepts Brotli, else ``<file>.gz`` with gzip;
- ``CACHE``: the runtime's folder is named by its digest, so it is cached for a year and never
  asked for again; everything else (pages, ``sw.js``, scripts) is checked with the server on
  every use (``no-cache``), so a new build is seen at once;
- the CSP as a header (:func:`sitegen.csp.header_policy`), besides each page's meta tag; it
  holds the hashes of the pages' inline scripts, so it is this build's: write the configuration
  again after a build;
- a missing page gets the 404 page of the language folder it is in (``ro/404.html``), else the
  root one.

Written by the build into the site (:func:`write_host_files`), because a static host reads them
from there and they cost nothing: ``_headers`` (Netlify, Cloudflare Pages) and ``.nojekyll``
(GitHub Pages, which serves the root ``404.html`` itself). For a server of one's own:

    python -m sitegen.hosting nginx|caddy|apache [--base /gin/] [--site site] [--root DIR]

prints the configuration that serves the built site ``--site`` at the URL path ``--base`` from
the folder ``--root`` (where it is copied to; default: ``--site`` itself), to be included in a
``server { }`` block (nginx), a site block (Caddy) or a ``<VirtualHost>`` (Apache).

:class:`Nginx` runs nginx on loopback with that configuration, for the tests and the benchmark.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from . import csp
from .compress import ENCODINGS, SUFFIXES
from .offline import MANIFEST

TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".map": "application/json",
    ".xml": "application/xml",
    ".txt": "text/plain",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".snapshot": "application/octet-stream",
}
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/manifest+json")
"""Sent with ``; charset=utf-8``: every text file of the site is UTF-8."""
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
CACHE = (("assets/runtime/", IMMUTABLE), ("", REVALIDATE))
"""(folder, Cache-Control) of the site's files, the first folder that holds a file wins."""
HEADERS = {"X-Content-Type-Options": "nosniff"}
"""Sent with every file, besides Content-Security-Policy and Cache-Control."""
NOT_FOUND = "404.html"
HOST_FILES = ("_headers", ".nojekyll")


def content_type(suffix: str) -> str:
    """The Content-Type header of a file with this suffix."""
    kind = TYPES.get(suffix, "application/octet-stream")
    return f"{kind}; charset=utf-8" if kind.startswith(TEXT_TYPES) else kind


def cache_control(relative: str) -> str:
    """The Cache-Control header of a file (its path relative to the site's root)."""
    return next(value for folder, value in CACHE if relative.startswith(folder))


def compressible_types() -> list[str]:
    """The media types of what the build precompresses (what a server should gzip on the fly)."""
    return sorted({TYPES[s] for s in SUFFIXES if s in TYPES})


def languages_with_404(site_dir: Path) -> list[str]:
    """The language folders of a built site that have their own 404 page."""
    return sorted(p.parent.name for p in site_dir.glob(f"*/{NOT_FOUND}"))


def base_path(base: str) -> str:
    """A URL path as "/gin/": one slash at each end ("/" for the root)."""
    return (
        "/" + "/".join(part for part in base.split("/") if part) + ("/" if base.strip("/") else "")
    )


def _facts(site_dir: Path, base: str, root: Path | str | None) -> tuple[str, str, str, list[str]]:
    site_dir = Path(site_dir)
    if not (site_dir / "index.html").is_file():
        raise SystemExit(f"{site_dir}: no built site here (index.html): run `make site` first")
    root_dir = str(root or site_dir.resolve()).rstrip("/") + "/"
    return base_path(base), root_dir, csp.header_policy(site_dir), languages_with_404(site_dir)


def _by_type() -> dict[str, list[str]]:
    """{Content-Type: the suffixes of the files sent with it}."""
    by_type: dict[str, list[str]] = {}
    for suffix in sorted(TYPES):
        by_type.setdefault(content_type(suffix), []).append(suffix)
    return by_type


def _header_lines(site_dir: Path) -> list[tuple[str, str]]:
    return [("Content-Security-Policy", csp.header_policy(site_dir)), *HEADERS.items()]


# --- nginx ------------------------------------------------------------------------------------


def nginx(
    site_dir: Path,
    base: str = "/",
    root: Path | str | None = None,
    *,
    precompressed: bool = True,
    brotli: bool = True,
    own_404: bool = True,
) -> str:
    """nginx's configuration, for a ``server { }`` block. precompressed: send the .br and .gz
    copies (gzip_static, and brotli_static from Debian's libnginx-mod-http-brotli-static unless
    brotli is false: a server without that module), else gzip on the fly; own_404: each
    language its own 404 page (else the root one for all)."""
    base, root_dir, _policy, langs = _facts(site_dir, base, root)

    def headers(cache: str, pad: str) -> list[str]:
        return [
            f'{pad}add_header {name} "{value}" always;'
            for name, value in (("Cache-Control", cache), *_header_lines(site_dir))
        ]

    types = " ".join(f"{kind} {suffix[1:]};" for suffix, kind in sorted(TYPES.items()))
    charset_types = sorted({k for k in TYPES.values() if k.startswith(TEXT_TYPES)} - {"text/html"})
    if precompressed:
        encoding = ["gzip_static on;", *(["brotli_static on;"] if brotli else []), "gzip_vary on;"]
    else:
        on_the_fly = [t for t in compressible_types() if t != "text/html"]
        encoding = [
            "gzip on;",
            "gzip_vary on;",
            "gzip_min_length 512;",
            f"gzip_types {' '.join(on_the_fly)};",
        ]
    lines = [
        f"# The gin rummy site at {base}, from {root_dir} (sitegen/hosting.py: write it again",
        "# after each build, as the Content-Security-Policy holds the pages' script hashes).",
    ]
    if precompressed and brotli:
        lines.append("# brotli_static: Debian's package libnginx-mod-http-brotli-static.")
    if base != "/":
        lines.append(f"location = {base.rstrip('/')} {{ return 301 {base}; }}")
    lines += [
        f"location {base} {{",
        f"    alias {root_dir};",
        "    index index.html;",
        "    absolute_redirect off;",
        f"    types {{ {types} }}",
        "    default_type application/octet-stream;",
        "    charset utf-8;",
        f"    charset_types {' '.join(charset_types)};",
        *(f"    {line}" for line in encoding),
        *headers(cache_control(""), "    "),
        f"    error_page 404 {base}{NOT_FOUND};",
    ]
    for folder, cache in CACHE:
        if folder:
            lines += [f"    location {base}{folder} {{", *headers(cache, "        "), "    }"]
    if own_404:
        for lang in langs:
            lines.append(
                f"    location {base}{lang}/ {{ error_page 404 {base}{lang}/{NOT_FOUND}; }}"
            )
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- Caddy ------------------------------------------------------------------------------------


def caddy(site_dir: Path, base: str = "/", root: Path | str | None = None) -> str:
    """Caddy's configuration (Caddyfile), for a site block."""
    base, root_dir, policy, langs = _facts(site_dir, base, root)
    prefix = base.rstrip("/")
    lines = [
        f"# The gin rummy site at {base}, from {root_dir} (sitegen/hosting.py: write it again",
        "# after each build, as the Content-Security-Policy holds the pages' script hashes).",
    ]
    if prefix:
        lines.append(f"redir {prefix} {base} 301")
    lines += [f"handle_path {base}* {{", f"\troot * {root_dir.rstrip('/')}"]
    for name, value in _header_lines(site_dir):
        lines.append(f'\theader {name} "{value}"')
    # Caddy runs every matching header directive: each file matches one rule (its folder's,
    # else the default, for the files in no folder of the rules).
    folders = [f"/{folder}*" for folder, _ in CACHE if folder]
    for i, (folder, cache) in enumerate(CACHE):
        where = f"path /{folder}*" if folder else f"not path {' '.join(folders)}"
        lines += [f"\t@cache{i} {where}", f'\theader @cache{i} Cache-Control "{cache}"']
    for i, (kind, suffixes) in enumerate(_by_type().items()):  # deferred: after file_server's
        lines += [
            f"\t@type{i} path {' '.join('*' + suffix for suffix in suffixes)}",
            f"\theader @type{i} {{",
            f'\t\tContent-Type "{kind}"',
            "\t\tdefer",
            "\t}",
        ]
    lines += ["\tfile_server {", f"\t\tprecompressed {' '.join(ENCODINGS)}", "\t}", "}"]
    lines.append("handle_errors {")
    pages = [(f"{base}{lang}/", f"/{lang}/{NOT_FOUND}") for lang in langs] + [
        (base, f"/{NOT_FOUND}")
    ]
    for i, (where, page) in enumerate(pages):
        lines += [
            f"\t@missing{i} {{",
            "\t\texpression {err.status_code} == 404",
            f"\t\tpath {where}*",
            "\t}",
            f"\thandle @missing{i} {{",
            f"\t\troot * {root_dir.rstrip('/')}",
            f"\t\trewrite * {page}",
            f'\t\theader Content-Security-Policy "{policy}"',
            "\t\tfile_server",
            "\t}",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- Apache -----------------------------------------------------------------------------------


def apache(site_dir: Path, base: str = "/", root: Path | str | None = None) -> str:
    """Apache's configuration, for a <VirtualHost> (modules: alias, dir, mime, rewrite,
    headers: `a2enmod rewrite headers` on Debian)."""
    base, root_dir, _policy, langs = _facts(site_dir, base, root)
    lines = [
        f"# The gin rummy site at {base}, from {root_dir} (sitegen/hosting.py: write it again",
        "# after each build, as the Content-Security-Policy holds the pages' script hashes).",
    ]
    if base != "/":
        lines.append(f"RedirectMatch 301 ^{base.rstrip('/')}$ {base}")
        lines.append(f"Alias {base} {root_dir}")
    else:
        lines.append(f"DocumentRoot {root_dir}")
    lines += [
        f"<Directory {root_dir}>",
        "    Require all granted",
        "    Options -Indexes -MultiViews +SymLinksIfOwnerMatch",
        "    AllowOverride None",
        "    DirectoryIndex index.html",
        "    RemoveType .gz .br",
        "    RemoveEncoding .gz .br",
    ]
    by_type = _by_type()
    for kind, suffixes in by_type.items():
        lines.append(f'    AddType "{kind}" {" ".join(suffixes)}')
    lines += ["    # The precompressed copies, as the browser accepts them", "    RewriteEngine On"]
    lines.append(f"    RewriteBase {base}")
    for encoding, suffix in ENCODINGS.items():
        lines += [
            f'    RewriteCond "%{{HTTP:Accept-Encoding}}" "\\b{encoding}\\b"',
            f'    RewriteCond "%{{REQUEST_FILENAME}}{suffix}" -f',
            f'    RewriteRule "^(.+)$" "$1{suffix}" [L,E=no-gzip:1,E=no-brotli:1]',
        ]
    for encoding, suffix in ENCODINGS.items():
        escaped = suffix.replace(".", "\\.")
        lines.append(f'    <FilesMatch "{escaped}$">')
        lines.append(f"        Header set Content-Encoding {encoding}")
        lines.append("    </FilesMatch>")
        for kind, suffixes in by_type.items():
            names = "|".join(s[1:] for s in suffixes)
            lines.append(f'    <FilesMatch "\\.({names}){escaped}$">')
            lines.append(f'        ForceType "{kind}"')
            lines.append("    </FilesMatch>")
    lines.append("    Header append Vary Accept-Encoding")
    for name, value in _header_lines(site_dir):
        lines.append(f'    Header always set {name} "{value}"')
    lines.append(f'    Header always set Cache-Control "{cache_control("")}"')
    lines.append(f"    ErrorDocument 404 {base}{NOT_FOUND}")
    lines.append("</Directory>")
    for folder, cache in CACHE:
        if folder:
            lines += [
                f"<Directory {root_dir}{folder}>",
                f'    Header always set Cache-Control "{cache}"',
                "</Directory>",
            ]
    for lang in langs:
        lines += [
            f"<Directory {root_dir}{lang}/>",
            f"    ErrorDocument 404 {base}{lang}/{NOT_FOUND}",
            "</Directory>",
        ]
    return "\n".join(lines) + "\n"


# --- static hosts -----------------------------------------------------------------------------


def headers_file(site_dir: Path) -> str:
    """``_headers``, as Netlify and Cloudflare Pages read it (the site at the host's root)."""
    lines = [
        "# The gin rummy site's headers, for Netlify and Cloudflare Pages (sitegen/hosting.py).",
        "/*",
    ]
    lines += [f"  {name}: {value}" for name, value in _header_lines(site_dir)]
    for folder, cache in CACHE:
        if folder:  # the rest: these hosts' default, revalidated on every use
            lines += [f"/{folder}*", f"  Cache-Control: {cache}"]
    for folder in ["", *(f"{lang}/" for lang in languages_with_404(site_dir))]:
        lines += [f"/{folder}{MANIFEST}", f"  Content-Type: {content_type('.webmanifest')}"]
    return "\n".join(lines) + "\n"


def write_host_files(site_dir: Path) -> None:
    """Write what static hosts read in the site: ``_headers`` and ``.nojekyll`` (GitHub Pages:
    publish the folder as it is; it serves the root 404.html for a missing page)."""
    (site_dir / "_headers").write_text(headers_file(site_dir), encoding="utf-8")
    (site_dir / ".nojekyll").write_text("", encoding="utf-8")


# --- nginx on loopback, for the tests and the benchmark ---------------------------------------

NGINX = "nginx"
BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"
LOG_FORMAT = "$request_uri $status $body_bytes_sent $sent_http_content_encoding $bytes_sent"


class Request(NamedTuple):
    """A request nginx answered (a line of its log, LOG_FORMAT)."""

    path: str  # with its query
    status: int
    body_bytes: int
    encoding: str  # the Content-Encoding sent, or ""
    bytes_sent: int  # on the wire, headers included


class Nginx:
    """nginx serving a built site on 127.0.0.1 at ``base``, with :func:`nginx`'s configuration
    (``options``: its keyword arguments) and ``extra``, more of the ``server { }`` block. Use as
    a context manager; ``url`` is the site's address. The site's folder is reached through a
    link (``serve(folder)`` serves another build at the same address); every request is
    logged (``requests()``, ``clear()``)."""

    def __init__(self, site_dir: Path, base: str = "/", extra: str = "", **options: bool) -> None:
        self.site_dir, self.base, self.extra, self.options = Path(site_dir), base, extra, options
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""

    def __enter__(self) -> Nginx:
        binary = shutil.which(NGINX) or shutil.which(NGINX, path="/usr/sbin")
        if binary is None:
            raise RuntimeError("nginx not found: run `make setup` (apt-get install nginx)")
        self.dir = Path(tempfile.mkdtemp(prefix="gin-nginx-"))
        self.link = self.dir / "site"
        self.link.symlink_to(self.site_dir.resolve())
        (self.dir / "empty").mkdir()
        error = ""
        for _ in range(5):  # a free port, which another process may take first
            port = free_port()
            self._write_config(port)
            self.process = subprocess.Popen(
                [
                    binary,
                    "-p",
                    str(self.dir),
                    "-e",
                    str(self.dir / "error.log"),
                    "-c",
                    "nginx.conf",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            if wait_listening(port, self.process):
                self.url = f"http://127.0.0.1:{port}{base_path(self.base)}"
                return self
            error = self.process.stderr.read().decode() if self.process.stderr else ""
            self.process.wait()
            if "Address already in use" not in error:
                break
        shutil.rmtree(self.dir, ignore_errors=True)
        raise RuntimeError(f"nginx did not start: {error.strip()}")

    def _write_config(self, port: int) -> None:
        site = nginx(self.site_dir, self.base, self.link, **self.options)
        (self.dir / "site.conf").write_text(site, encoding="utf-8")
        brotli = self.options.get("precompressed", True) and self.options.get("brotli", True)
        module = BROTLI_MODULE if brotli else None
        d = self.dir
        (self.dir / "nginx.conf").write_text(
            "\n".join(
                [
                    "daemon off;",
                    "master_process off;",  # one process, as the user running it
                    f"pid {d}/nginx.pid;",
                    f"error_log {d}/error.log warn;",
                    f"load_module {module};" if module else "",
                    "events { worker_connections 512; }",
                    "http {",
                    f"    log_format gin '{LOG_FORMAT}';",
                    f"    access_log {d}/access.log gin;",
                    *(f"    {k}_temp_path {d}/{k};" for k in _TEMP_PATHS),
                    "    sendfile on;",
                    "    server {",
                    f"        listen 127.0.0.1:{port};",
                    "        server_name localhost;",
                    f"        root {d}/empty;",
                    f"        include {d}/site.conf;",
                    self.extra.replace("{site}", str(self.link)),
                    "    }",
                    "}",
                ]
            )
            + "\n",
            encoding="utf-8",
        )

    def serve(self, site_dir: Path) -> None:
        """Serve another built site from now on, at the same address."""
        new = self.dir / "site.new"
        new.symlink_to(Path(site_dir).resolve())
        os.replace(new, self.link)

    def requests(self) -> list[Request]:
        """Every request answered since the last clear, in order."""
        out = []
        log = self.dir / "access.log"
        for line in log.read_text(encoding="utf-8").splitlines() if log.is_file() else []:
            path, status, size, encoding, sent = line.split(" ")
            out.append(
                Request(
                    path, int(status), int(size), "" if encoding == "-" else encoding, int(sent)
                )
            )
        return out

    def paths(self) -> list[str]:
        """The path (with its query) of every request since the last clear, in order."""
        return [path for path, *_ in self.requests()]

    def clear(self) -> None:
        (self.dir / "access.log").write_text("", encoding="utf-8")

    def __exit__(self, *exc: object) -> None:
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


_TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_listening(
    port: int, process: subprocess.Popen[bytes] | subprocess.Popen[str], limit_s: float = 30.0
) -> bool:
    """True once the port takes connections; False if the process ended first."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return True
        time.sleep(0.02)
    process.kill()
    return False


# --- the command line -------------------------------------------------------------------------

SERVERS = {"nginx": nginx, "caddy": caddy, "apache": apache}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sitegen.hosting",
        description="Print the configuration that serves the built site with a web server.",
    )
    parser.add_argument("server", choices=sorted(SERVERS))
    parser.add_argument("--base", default="/", help="the URL path of the site (default: /)")
    parser.add_argument("--site", default="site", help="the built site (default: site)")
    parser.add_argument(
        "--root", help="the folder the server reads the site from (default: --site's)"
    )
    args = parser.parse_args(argv)
    sys.stdout.write(SERVERS[args.server](Path(args.site), args.base, args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
