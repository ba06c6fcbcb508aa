"""`quotebound serve`: the HTTP service (agent/server) and its chat page under uvicorn.

Needs the `server` extra (fastapi, uvicorn). Settings are read here, at the edge: flags, then the
`QUOTEBOUND_*` environment (QUOTEBOUND_API_KEYS_FILE for the keys). Nothing heavy is imported until it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from quotebound.agent.cli.common import EXIT_OK, EXIT_OPERATOR, policy_option
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings, load_api_keys

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def serve_settings(args: argparse.Namespace) -> Settings:
    keys = load_api_keys(args.keys) if args.keys else None
    limits = {
        name: value
        for name, value in (
            ("max_body_bytes", args.max_body_bytes),
            ("body_timeout_s", args.body_timeout),
            ("idle_timeout_s", args.idle_timeout),
        )
        if value is not None
    }
    return Settings.from_env(
        store=args.store, policy_file=args.policy, model=args.model, api_keys=keys, server=limits or None
    )


def cmd_serve(args: argparse.Namespace) -> int:
    try:  # optional (quotebound[server]): only `serve` needs the HTTP stack
        import uvicorn

        from quotebound.agent.server import create_app
        from quotebound.agent.server.transport import uvicorn_options
    except ImportError as exc:
        raise OperatorError(
            ErrorCode.MISCONFIGURED,
            f"`quotebound serve` needs the server extra: pip install 'quotebound[server]' ({exc.name})",
        ) from None
    # deferred: the agent (langgraph) would slow `quotebound --help`
    from quotebound.agent.facade.agent import Agent
    from quotebound.tools.policy_file import load_policy

    settings = serve_settings(args)
    policy = load_policy(settings)  # before the agent opens the store: a bad policy file fails fast
    with Agent(settings, policy=policy) as agent:
        app = create_app(agent)
        config = uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            server_header=False,
            proxy_headers=False,
            **uvicorn_options(settings.server),
        )
        server = _make_server(config, keys=len(settings.api_keys), loopback=args.host in LOOPBACK)
        try:
            server.run()
        except SystemExit as exc:  # uvicorn exits when it cannot bind (the port is taken)
            return EXIT_OPERATOR if exc.code else EXIT_OK
    return EXIT_OK if server.started else EXIT_OPERATOR


def _make_server(config: Any, *, keys: int, loopback: bool) -> Any:
    import uvicorn  # optional (quotebound[server]); cmd_serve has already checked it is installed

    class Server(uvicorn.Server):
        """uvicorn's server that prints the service's URL once it listens (the actual port with --port 0)."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if not self.started:
                return
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            shown = f"[{host}]" if ":" in host else host
            print(f"quotebound serving on http://{shown}:{port}/ ({keys} API keys; no key = role public)", flush=True)
            if not loopback and not keys:
                print("warning: listening beyond loopback with no API keys: every caller is public", file=sys.stderr)

    return Server(config)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="the HTTP service and its chat page (needs quotebound[server])",
        description="Serves POST /ask, POST /ask/stream (server-sent events), GET /evidence/{ref}, "
        "GET /runs/{run_id}/trace, GET /audit/{audit_ref}, GET /healthz, GET /openapi.json and the chat page at /. "
        "Callers send an API key (Authorization: Bearer KEY or X-API-Key) mapped to a role in the keys file "
        "({keys: [{key, role, labels, name}]}); no key means role public. Prints the URL once it listens.",
    )
    p.add_argument("--store", default=".quotebound", help="store folder (default: .quotebound)")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free port)")
    p.add_argument("--keys", type=Path, metavar="FILE", help="API keys YAML (env QUOTEBOUND_API_KEYS_FILE)")
    policy_option(p)
    p.add_argument("--model", help="extractive (default), chat:<provider>:<model>, or openai:<model>@<base_url>")
    p.add_argument("--max-body-bytes", type=int, metavar="N", help="larger request bodies get 413 (default 262144)")
    p.add_argument(
        "--body-timeout", type=float, metavar="S", help="a request body not read within S seconds gets 408 (default 15)"
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        metavar="S",
        help="a connection idle, or still sending its headers, S seconds is closed with 408 (default 10)",
    )
    p.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"], help="server log"
    )
    p.set_defaults(func=cmd_serve)
