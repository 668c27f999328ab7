"""The parts of the live table's websocket (tabletop/consumers.py), one job each.

- layer: the channel layer as the socket uses it (no hop per message, a Redis outage
  waited out)
- fanout: a group's broadcasts received and decoded once per process, handed to each of
  its sockets there in order
- frame_limits: the limits a client's frame meets on arrival
- dispatch: each kind of frame to its service, and the answer it gets
- service_calls: where a service runs (the engine's threads) and the engine time charged
- delivery: the table's events to one client (in order, once, a spectator's delay)
- seat_rights: whether a socket keeps its seat when its rights are read again
- presence: the socket's place under the user's cap and its row in who is here
"""
