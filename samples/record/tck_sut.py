"""Starts the test kit's own SUT, sut/a2a-python/sut_agent.py, on a2a-sdk 1.3.0.

The kit's SUT was written for an older a2a-python; run_sut supplies the few names it
imports that 1.3.0 dropped, moves uvicorn behind record_tck.py's recording proxy, then
runs the kit's file unmodified. record_tck.py calls it in a process of its own, as
`record_tck.py --run-sut <sut_agent.py> --sut-host H:P --grpc-port G --bind-port Q`,
with the interpreter of the environment a2a-sdk is installed in.
"""

import os
import runpy
import sys
import types


def run_sut(args) -> None:
    """Runs the kit's sut_agent.py, unmodified, on a2a-sdk 1.3.0.

    The SUT of 1.0-dev was generated for an a2a-python of before 1.0.0 and imports three
    things a2a-sdk 1.3.0 no longer has; this supplies them before the SUT is imported:

    - `a2a.server.apps.A2AStarletteApplication(agent_card=, http_handler=)` with
      `add_routes_to_app(app)`: the card at /.well-known/agent-card.json and JSON-RPC at
      `/` (the old defaults), made with 1.3.0's create_agent_card_routes and
      create_jsonrpc_routes;
    - `a2a.server.apps.A2ARESTFastAPIApplication(...).build(rpc_url=)`: a Starlette app
      with the card and create_rest_routes(path_prefix=rpc_url) (a Starlette app, not
      FastAPI: the routes and their endpoints are the same);
    - `DefaultRequestHandler(agent_executor=, task_store=)` from
      a2a.server.request_handlers.default_request_handler: in 1.3.0 that module's handler
      is called LegacyRequestHandler (the package's DefaultRequestHandler is the newer
      DefaultRequestHandlerV2, in a module of its own, which rejects the SUT's executor:
      it completes tasks without enqueuing a Task first). LegacyRequestHandler wants the
      agent card as well, so it is built once the card reaches it through one of the
      classes above or through `GrpcHandler(agent_card, request_handler)`, the old
      argument order of the gRPC servicer, also adapted.

    And it makes uvicorn listen on 127.0.0.1:<--bind-port> instead of 0.0.0.0 and the
    port of SUT_HOST, which is the recording proxy's. SUT_HOST and GRPC_PORT, the SUT's
    own configuration, are set from --sut-host and --grpc-port. Nothing else changes:
    the executor, the card and the servers are the kit's.
    """
    import uvicorn
    from starlette.applications import Starlette

    import a2a.server
    import a2a.server.request_handlers.default_request_handler as default_module
    import a2a.server.request_handlers.grpc_handler as grpc_module
    from a2a.server.request_handlers.default_request_handler import LegacyRequestHandler as Handler
    from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes

    class CardLaterHandler(Handler):
        def __init__(self, agent_executor, task_store, agent_card=None, **kw):
            self._pending = (agent_executor, task_store, kw)
            self._card = None
            if agent_card is not None:
                self.bind_card(agent_card)

        def bind_card(self, card) -> None:
            if self._card is None:
                executor, store, kw = self._pending
                Handler.__init__(self, agent_executor=executor, task_store=store, agent_card=card, **kw)
                self._card = card

    def bind(handler, card) -> None:
        if hasattr(handler, 'bind_card'):
            handler.bind_card(card)

    class A2AStarletteApplication:
        def __init__(self, agent_card, http_handler, **_):
            self.agent_card, self.handler = agent_card, http_handler
            bind(http_handler, agent_card)

        def routes(self, agent_card_url='/.well-known/agent-card.json', rpc_url='/', **_):
            return [*create_agent_card_routes(self.agent_card, card_url=agent_card_url),
                    *create_jsonrpc_routes(self.handler, rpc_url=rpc_url)]

        def add_routes_to_app(self, app, **kw) -> None:
            app.router.routes.extend(self.routes(**kw))

        def build(self, **kw):
            return Starlette(routes=self.routes(**kw))

    class A2ARESTFastAPIApplication(A2AStarletteApplication):
        def routes(self, agent_card_url='/.well-known/agent-card.json', rpc_url='', **_):
            return [*create_agent_card_routes(self.agent_card, card_url=agent_card_url),
                    *create_rest_routes(self.handler, path_prefix=rpc_url)]

    class GrpcHandler(grpc_module.GrpcHandler):
        def __init__(self, agent_card, request_handler=None, *rest, **kw):
            if request_handler is None:  # the 1.3.0 call, GrpcHandler(request_handler)
                agent_card, request_handler = None, agent_card
            else:
                bind(request_handler, agent_card)
            super().__init__(request_handler, *rest, **kw)

    apps = types.ModuleType('a2a.server.apps')
    apps.A2AStarletteApplication = A2AStarletteApplication
    apps.A2ARESTFastAPIApplication = A2ARESTFastAPIApplication
    sys.modules['a2a.server.apps'] = apps
    a2a.server.apps = apps
    default_module.DefaultRequestHandler = CardLaterHandler
    grpc_module.GrpcHandler = GrpcHandler

    config_init = uvicorn.Config.__init__

    def bind_behind_proxy(self, app, *rest, **kw):
        kw['host'], kw['port'] = '127.0.0.1', args.bind_port
        config_init(self, app, *rest, **kw)

    uvicorn.Config.__init__ = bind_behind_proxy

    os.environ['SUT_HOST'] = args.sut_host
    os.environ['GRPC_PORT'] = str(args.grpc_port)
    agent = args.run_sut.resolve()
    sys.argv = [str(agent)]
    sys.path[0] = str(agent.parent)  # as `python sut_agent.py` would have it
    runpy.run_path(str(agent), run_name='__main__')
