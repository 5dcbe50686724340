collect_ignore_glob = ['/opt/*', '/work/main/*']
