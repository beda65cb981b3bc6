#!/usr/bin/env bash
# Starts MariaDB when it is not running and creates the test user the e2e suite connects with
# (DAM_TEST_MYSQL_URL, default mysql://dam_test:dam_test@127.0.0.1:3306). Root may only work over the socket.
set -euo pipefail

SOCKET=/run/mysqld/mysqld.sock
mysql_cli() { if command -v mariadb >/dev/null 2>&1; then mariadb "$@"; else mysql "$@"; fi; }
root_sql() { mysql_cli -uroot --socket="$SOCKET" -e "$1" 2>/dev/null || mysql_cli -uroot -h127.0.0.1 -e "$1"; }

if ! mysql_cli -uroot --socket="$SOCKET" -e 'SELECT 1' >/dev/null 2>&1 && ! mysql_cli -uroot -h127.0.0.1 -e 'SELECT 1' >/dev/null 2>&1; then
  echo "starting MariaDB"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  start-stop-daemon --start --oknodo --background --pidfile /run/mysqld/mysqld.pid \
    --exec /usr/sbin/mariadbd -- --user=mysql
  for _ in $(seq 1 60); do
    mysql_cli -uroot --socket="$SOCKET" -e 'SELECT 1' >/dev/null 2>&1 && break
    sleep 1
  done
fi

root_sql "CREATE USER IF NOT EXISTS 'dam_test'@'localhost' IDENTIFIED BY 'dam_test';
CREATE USER IF NOT EXISTS 'dam_test'@'127.0.0.1' IDENTIFIED BY 'dam_test';
GRANT ALL PRIVILEGES ON \`dam\\_%\`.* TO 'dam_test'@'localhost';
GRANT ALL PRIVILEGES ON \`dam\\_%\`.* TO 'dam_test'@'127.0.0.1';
FLUSH PRIVILEGES;"
mysql_cli -udam_test -pdam_test -h127.0.0.1 -e 'SELECT VERSION()' >/dev/null
echo "MariaDB ready; test user dam_test"
