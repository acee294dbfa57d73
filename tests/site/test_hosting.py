"""The hosting configurations (sitegen/hosting.py), on the built site: each is accepted by its
server's own checker (`nginx -t`, `caddy validate`, `apachectl -t`), and each server, running
with it, answers as the facts say (types, encodings, cache rules, the CSP header, the 404 page
of each language); the files static hosts read are in the site."""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from sitegen import csp, hosting
from sitegen.compress import ENCODINGS

BASES = ["/", "/gin/"]


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("precompressed", [True, False])
def test_nginx_accepts_its_configuration(built_site, tmp_path, base, precompressed):
    (tmp_path / "site.conf").write_text(
        hosting.nginx(built_site, base, precompressed=precompressed)
    )
    module = f"load_module {hosting.BROTLI_MODULE};" if precompressed else ""
    (tmp_path / "nginx.conf").write_text(
        f"{module}\nevents {{}}\nhttp {{ server {{ listen 127.0.0.1:8080; "
        f"include {tmp_path}/site.conf; }} }}\n"
    )
    done = run(["nginx", "-t", "-p", str(tmp_path), "-e", "stderr", "-c", "nginx.conf"])
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr and "[warn]" not in done.stderr, done.stderr


@pytest.mark.parametrize("base", BASES)
def test_caddy_accepts_its_configuration(built_site, tmp_path, base):
    (tmp_path / "Caddyfile").write_text(
        "{\n\tadmin off\n}\nhttp://127.0.0.1:8080 {\n"
        + textwrap.indent(hosting.caddy(built_site, base), "\t")
        + "}\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    done = run(
        ["caddy", "validate", "--config", "Caddyfile", "--adapter", "caddyfile"],
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr
    # what caddy fmt would change: nothing (the configuration is as Caddy writes it)
    assert "not formatted" not in done.stderr, done.stderr


APACHE_MODULES = ("mpm_event", "authz_core", "alias", "dir", "mime", "rewrite", "headers")


@pytest.mark.parametrize("base", BASES)
def test_apache_accepts_its_configuration(built_site, tmp_path, base):
    modules = "\n".join(
        f"LoadModule {name}_module /usr/lib/apache2/modules/mod_{name}.so"
        for name in APACHE_MODULES
    )
    (tmp_path / "site.conf").write_text(hosting.apache(built_site, base))
    (tmp_path / "apache2.conf").write_text(
        f"ServerRoot {tmp_path}\nPidFile {tmp_path}/apache.pid\nErrorLog {tmp_path}/error.log\n"
        f"{modules}\nListen 127.0.0.1:8080\nServerName localhost\n"
        f"<VirtualHost *:8080>\nInclude {tmp_path}/site.conf\n</VirtualHost>\n"
    )
    done = run(["apachectl", "-t", "-f", str(tmp_path / "apache2.conf")])
    assert done.returncode == 0, done.stderr
    assert "Syntax OK" in done.stderr, done.stderr


def test_the_configurations_state_the_same_facts(built_site):
    """The policy of the pages, the types, the runtime's cache rule: in each configuration."""
    policy = csp.header_policy(built_site)
    meta = re.search(
        r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">',
        (built_site / "index.html").read_text(encoding="utf-8"),
    ).group(1)
    assert policy.startswith(meta + "; ") and "frame-ancestors" in policy
    for text in (
        hosting.nginx(built_site, "/gin/"),
        hosting.caddy(built_site, "/gin/"),
        hosting.apache(built_site, "/gin/"),
        (built_site / "_headers").read_text(encoding="utf-8"),
    ):
        assert policy in text and hosting.IMMUTABLE in text
    for text in (hosting.nginx(built_site), hosting.caddy(built_site), hosting.apache(built_site)):
        assert "application/wasm" in text and "text/javascript" in text
        assert "application/manifest+json" in text


def test_static_hosts_find_their_files(built_site):
    assert (built_site / ".nojekyll").is_file() and (built_site / "404.html").is_file()
    headers = (built_site / "_headers").read_text(encoding="utf-8").splitlines()
    assert headers[1] == "/*"
    assert f"  Content-Security-Policy: {csp.header_policy(built_site)}" in headers
    at = headers.index("/assets/runtime/*")
    assert headers[at + 1] == f"  Cache-Control: {hosting.IMMUTABLE}"
    for lang in ("", "ro/", "hu/", "it/"):
        at = headers.index(f"/{lang}manifest.webmanifest")
        assert headers[at + 1] == "  Content-Type: application/manifest+json; charset=utf-8"


def fetch(url: str, encoding: str = "") -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def runtime_folder(site: Path) -> str:
    return next((site / "assets/runtime").iterdir()).name


def check_served_as_the_facts_say(site: Path, url: str, precompressed: bool = True) -> None:
    """The site at url (its base path /gin/) answers as sitegen/hosting.py says. Precompressed:
    the build's .br or .gz copy as the browser accepts it, else the file; without: gzip on the
    fly, when the browser accepts it."""
    runtime = f"assets/runtime/{runtime_folder(site)}/"
    policy = csp.header_policy(site)
    cases = {
        "": ("text/html; charset=utf-8", hosting.REVALIDATE),
        "sw.js": ("text/javascript; charset=utf-8", hosting.REVALIDATE),
        "ro/manifest.webmanifest": ("application/manifest+json; charset=utf-8", hosting.REVALIDATE),
        runtime + "pyodide.asm.wasm": ("application/wasm", hosting.IMMUTABLE),
        runtime + "pyodide.asm.mjs": ("text/javascript; charset=utf-8", hosting.IMMUTABLE),
        runtime + "engine.snapshot": ("application/octet-stream", hosting.IMMUTABLE),
    }
    for path, (kind, cache) in cases.items():
        local = site / (path or "index.html")
        for accepted in ("br", "gzip", ""):
            status, headers, body = fetch(url + path, accepted)
            assert status == 200, path
            assert headers["Content-Type"] == kind, (path, accepted)
            assert headers["Cache-Control"] == cache, path
            assert headers["Content-Security-Policy"] == policy, path
            assert headers["X-Content-Type-Options"] == "nosniff"
            sent = headers.get("Content-Encoding", "")
            if precompressed:
                assert sent == accepted, (path, accepted)
                copy = local.with_name(local.name + ENCODINGS[sent]) if sent else local
                assert body == copy.read_bytes(), (path, accepted)
            else:
                assert sent == ("gzip" if accepted == "gzip" else ""), (path, accepted)
                assert (gzip.decompress(body) if sent else body) == local.read_bytes()
    for lang in ("", "ro/", "hu/", "it/"):
        status, headers, body = fetch(url + lang + "rules/no/such/page/")
        assert status == 404 and headers["Content-Security-Policy"] == policy
        assert body == (site / lang / "404.html").read_bytes(), lang
    status, _, _ = fetch(url.rstrip("/"))
    assert status == 200  # /gin redirected to /gin/


@pytest.mark.parametrize("precompressed", [True, False])
def test_nginx_serves_the_site_as_the_facts_say(built_site, precompressed):
    with hosting.Nginx(built_site, "/gin/", precompressed=precompressed) as server:
        check_served_as_the_facts_say(built_site, server.url, precompressed)
        assert server.paths()[-2:] == ["/gin", "/gin/"]


@contextlib.contextmanager
def running(command: list[str], port: int, **kwargs):
    """A server started by command, once it listens on port; stopped after, with every
    process it started (apachectl is a script that leaves apache2 running if only it is
    stopped): the command runs in a session of its own, and the whole group is stopped."""
    server = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        **kwargs,
    )
    try:
        assert hosting.wait_listening(port, server), f"{command[0]} did not start"
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):  # whatever of the group is left
            os.killpg(server.pid, signal.SIGKILL)


def test_caddy_serves_the_site_as_the_facts_say(built_site, tmp_path):
    port = hosting.free_port()
    (tmp_path / "Caddyfile").write_text(
        f"{{\n\tadmin off\n\tauto_https off\n}}\nhttp://127.0.0.1:{port} {{\n"
        + textwrap.indent(hosting.caddy(built_site, "/gin/"), "\t")
        + "}\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    command = ["caddy", "run", "--config", "Caddyfile", "--adapter", "caddyfile"]
    with running(command, port, cwd=tmp_path, env=env):
        check_served_as_the_facts_say(built_site, f"http://127.0.0.1:{port}/gin/")


def test_apache_serves_the_site_as_the_facts_say(built_site, tmp_path):
    """(Apache's processes run as nobody when started as root: they read a copy of the site,
    hard links in a folder anyone may read.)"""
    readable = Path(tempfile.mkdtemp(prefix="gin-apache-"))
    try:
        readable.chmod(0o755)
        shutil.copytree(built_site, readable / "site", copy_function=os.link)
        port = hosting.free_port()
        modules = "\n".join(
            f"LoadModule {name}_module /usr/lib/apache2/modules/mod_{name}.so"
            for name in APACHE_MODULES
        )
        user = "User nobody\nGroup nogroup\n" if os.geteuid() == 0 else ""
        (tmp_path / "site.conf").write_text(hosting.apache(readable / "site", "/gin/"))
        (tmp_path / "apache2.conf").write_text(
            f"ServerRoot {tmp_path}\nPidFile {tmp_path}/apache.pid\n"
            f"ErrorLog {tmp_path}/error.log\n{modules}\n{user}TypesConfig /etc/mime.types\n"
            f"Listen 127.0.0.1:{port}\nServerName localhost\n"
            f"<VirtualHost *:{port}>\nInclude {tmp_path}/site.conf\n</VirtualHost>\n"
        )
        with running(["apachectl", "-X", "-f", str(tmp_path / "apache2.conf")], port):
            check_served_as_the_facts_say(readable / "site", f"http://127.0.0.1:{port}/gin/")
    finally:
        shutil.rmtree(readable, ignore_errors=True)


def test_the_readmes_commands_print_the_configurations(built_site):
    """The README's hosting commands, run on the built site: each prints its server's
    configuration for that base path and folder."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    python -m sitegen\.hosting (\w+) +(.*?) >", readme, re.M)
    assert [name for name, _ in commands] == ["nginx", "caddy", "apache"]
    for name, arguments in commands:
        done = run(
            [sys.executable, "-m", "sitegen.hosting", name, *arguments.split()]
            + ["--site", str(built_site)]
        )
        assert done.returncode == 0, done.stderr
        expected = hosting.SERVERS[name](built_site, "/gin/", "/var/www/gin")
        assert done.stdout == expected and "/var/www/gin/" in expected


def test_a_folder_that_is_no_built_site_is_named(tmp_path):
    done = run([sys.executable, "-m", "sitegen.hosting", "nginx", "--site", str(tmp_path)])
    assert done.returncode == 1 and done.stdout == ""
    assert (
        done.stderr.strip() == f"{tmp_path}: no built site here (index.html): run `make site` first"
    )
