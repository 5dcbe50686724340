import sys
print('{"event": "end"}')
sys.exit(0)
