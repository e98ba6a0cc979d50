import sys, time
from reversi_ref.perft import engine_perft
from reversi_ref.rules import initial_state
from reversi_ref.mapfile import read_map_file
for item in sys.argv[1:]:
    name, depth = item.split(":")
    state = initial_state(read_map_file("maps/%s.map" % name))
    t = time.time()
    n = engine_perft(state, int(depth))
    print(name, depth, n, "%.1f" % (time.time() - t), flush=True)
