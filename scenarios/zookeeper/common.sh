# scenarios/zookeeper/common.sh — starting and stopping a standalone ZooKeeper on ./zk, for
# the workload and the checker; a JVM each, from Debian's packages. It listens on the VM's
# loopback only; its log stays outside the file system under test.
# $tmp, $server, the trap that stops it, wait_up: shared by the daemon scenarios.
. "$here/../daemon.sh"
cp=/usr/share/java/zookeeper.jar

# zk COMMAND [ARG...]: one zkCli command against the server; its output.
zk() {
	java -Xmx32m -XX:TieredStopAtLevel=1 -cp "$cp" org.apache.zookeeper.ZooKeeperMain \
		-server 127.0.0.1:2181 "$@" 2>&1
}

# start_server FORCESYNC: start ZooKeeper with forceSync=FORCESYNC on ./zk and wait until it
# answers; 1 if it died or did not answer within 60 s (it takes about 10 under TCG).
start_server() {
	cat >"$tmp/zoo.cfg" <<CFG
tickTime=2000
dataDir=$PWD/zk
clientPort=2181
clientPortAddress=127.0.0.1
admin.enableServer=false
preAllocSize=1024
forceSync=$1
CFG
	# slf4j-simple: the server's messages go to its log, warnings and worse.
	java -Xmx64m -XX:TieredStopAtLevel=1 -cp "$cp:/usr/share/java/slf4j-simple.jar" \
		-Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
		org.apache.zookeeper.server.ZooKeeperServerMain "$tmp/zoo.cfg" >"$tmp/zk.log" 2>&1 &
	server=$!
	wait_up ZooKeeper 60 "$tmp/zk.log" 0.5 zk_up
}

# zk_up: whether the server answers (its root lists the zookeeper node).
zk_up() {
	zk ls / | grep -q '^\[.*zookeeper'
}

stop_server() {
	kill "$server"
	wait "$server" || [ $? = 143 ]
	server=
}
