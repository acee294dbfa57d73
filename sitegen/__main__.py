"""python -m sitegen build [--strict-i18n] [--site-dir DIR] [--site-url URL] | serve [--port N]
| check-runtime | mark-translated LANG [PAGE…] | new-language LANG | translation-status"""

import argparse
import logging
import os
import signal
import sys
from pathlib import Path
from types import FrameType

from . import BuildError


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _port(text: str) -> int:
    """A port to serve on: a number from 1 to 65535 (checked before anything is built)."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a port: use a number from 1 to 65535"
        )
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sitegen")
    sub = parser.add_subparsers(dest="command", required=True)
    build_cmd = sub.add_parser("build", help="build the site into site/")
    build_cmd.add_argument("--site-dir", help="output directory (default: site/)")
    build_cmd.add_argument(
        "--strict-i18n",
        action="store_true",
        default=None,
        help="fail on a missing translation instead of falling back to English",
    )
    build_cmd.add_argument(
        "--node-modules", help="where npm installed pyodide (default: node_modules/)"
    )
    build_cmd.add_argument(
        "--site-url",
        default=os.environ.get("SITE_URL") or None,
        help="the URL the site will be served from, e.g. https://example.org/gin/ "
        "(default: $SITE_URL, else none): turns on instant navigation",
    )
    serve_cmd = sub.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on change")
    serve_cmd.add_argument("--port", type=_port, default=8000, help="1 to 65535 (default: 8000)")
    serve_cmd.add_argument("--strict-i18n", action="store_true", default=None)
    sub.add_parser("check-runtime", help="check node_modules holds the pinned Pyodide")
    mark = sub.add_parser(
        "mark-translated",
        help="record that pages of a language translate their English page as "
        "it is now (all the language's pages if none is named)",
    )
    mark.add_argument("language")
    mark.add_argument("pages", nargs="*", help="like rules/melds.md")
    new = sub.add_parser(
        "new-language", help="add a language: its catalog, its pages' folder, its mkdocs.yml entry"
    )
    new.add_argument("language", help="a code Material for MkDocs and lunr.js support, like de")
    status = sub.add_parser(
        "translation-status", help="per language: messages, pages and lessons translated or not"
    )
    status.add_argument(
        "--details", action="store_true", help="name every missing page, lesson and message"
    )
    args = parser.parse_args(argv)

    # The build is strict: any MkDocs warning fails it and comes back as the one-line error.
    logging.getLogger("mkdocs").addHandler(logging.NullHandler())
    # Stopped (SIGTERM, as by a CI timeout): unwind like Ctrl-C, so the build's half-made
    # folders and temporary runtime files are removed and the last good site stays.
    signal.signal(signal.SIGTERM, _stop)
    try:
        if args.command == "build":
            from .pipeline import build

            build(
                site_dir=args.site_dir,
                site_url=args.site_url,
                strict_i18n=args.strict_i18n,
                node_modules=Path(args.node_modules) if args.node_modules else None,
            )
        elif args.command == "mark-translated":
            from .pipeline import ROOT
            from .translations import mark_translated

            for page in mark_translated(ROOT / "docs", args.language, args.pages):
                print(f"docs/{args.language}/{page}")
        elif args.command == "new-language":
            from .languages import ROOT
            from .new_language import add_language

            for path in add_language(args.language, ROOT):
                print(path.relative_to(ROOT))
        elif args.command == "translation-status":
            from .pipeline import ROOT
            from .translations import translation_status

            for language in translation_status(ROOT):
                print("\n".join(language.lines(args.details)))
        elif args.command == "serve":
            from .server import serve

            serve(port=args.port, strict_i18n=args.strict_i18n)
        else:
            from .pipeline import ROOT
            from .runtime import check_npm_runtime, pinned_version

            print(
                check_npm_runtime(
                    ROOT / "node_modules" / "pyodide", pinned_version(ROOT / "package.json")
                )
            )
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
