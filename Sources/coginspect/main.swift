// The inspector front end arrives with its own issue; until then the command says what it will do.
print("""
coginspect: the Cog trace inspector (in progress)

It will open a .cogtrace recording (by default the bundled Weather tour in Recordings/) and let you
replay, query, diff, bisect and export the recorded state graph, interactively or in batch:

  coginspect [TRACE] [-c CMD]... [-f SCRIPT|-] [--json] [--keep-going]

Available today: the instrumented Cog runtime (import Cog, CogTesting) and `swift run -c release cog-bench`.
""")
