"""add_trail.py IN OUT JSON: the first line of IN (an export line), with the
members of the JSON object set on it, written to OUT (a crafted line)."""
import json, sys

line = json.loads(open(sys.argv[1], encoding="utf-8").readline())
line.update(json.loads(sys.argv[3]))
open(sys.argv[2], "w", encoding="utf-8").write(json.dumps(line) + "\n")
