# shellcheck shell=bash
# run's side of the bad-file workload (guest/workloads.sh, wl_bad_file):
# the guest writes a file, finds the drive's sectors under a 4 KiB of
# it, says "HDDSIM-BAD-SECTORS LBA+COUNT" on its console and waits for
# a "go" on its fourth serial port (ttyS3, the FIFO guest_file 1
# sync.in).  run gives drive 1 fault=bad@file:BF_FILE; seeing the
# line, it writes LBA+COUNT there (whole, then renamed into place), so
# that the plugin, which looks for the file every 10 ms, makes them go
# bad; BF_SETTLE_S later it sends the "go", again each second until the
# guest says it got it.  The sectors must go bad after the file is
# written: a write to a bad sector would reallocate it.
# Needs common.sh (log), run's RUNDIR, guest_file, WORK.

BF_SETTLE_S=1           # 100 of the plugin's polls
BF_GO_TRIES=30          # "go"s sent before the run gives up
BF_FILE='' BF_RUN='' BF_STATE='' BF_SENT_AT=0 BF_TRIES=0

# bad_file_setup: drive 1's fault parameter, a file in the run's work
# folder
bad_file_setup() {
    BF_FILE=$WORK/bad-file.sectors
    rm -f "$BF_FILE"
    DRIVE_PARAMS+=("1:fault=bad@file:$BF_FILE")
}

# bad_file_range CONSOLE: the sectors the guest asked for, LBA+COUNT;
# nothing until it has; false, after saying so, if they are not a range
bad_file_range() {
    local line range
    line=$(grep -a -o 'HDDSIM-BAD-SECTORS [^[:space:]]*' "$1" | head -n1) || return 0
    range=${line#HDDSIM-BAD-SECTORS }
    if ! [[ $range =~ ^[0-9]+\+[1-9][0-9]*$ ]]; then
        log "FAILED: bad-file: the guest asked for sectors '$range', not LBA+COUNT"
        return 1
    fi
    echo "$range"
}

# bad_file_send_go: the "go" to the guest (the FIFO opened read-write
# never blocks, as send_go's)
bad_file_send_go() {
    echo go 1<> "$(guest_file 1 sync).in"
    BF_SENT_AT=$(date +%s) BF_TRIES=$((BF_TRIES + 1))
}

# bad_file_step: the next step for this run (RUNDIR): waiting for the
# sectors, the settle, sending the "go" until the guest has it; false,
# after saying why, when the guest asked for no range or never took the
# "go"
bad_file_step() {
    local console range
    console=$(guest_file 1 console.log)
    [ "$BF_RUN" = "$RUNDIR" ] || { BF_RUN=$RUNDIR BF_STATE=waiting BF_TRIES=0; }
    case $BF_STATE in
        waiting)
            range=$(bad_file_range "$console") || return 1
            [ -n "$range" ] || return 0
            if ! { echo "$range" > "$BF_FILE.tmp" && mv "$BF_FILE.tmp" "$BF_FILE"; }; then
                log "FAILED: bad-file: cannot write $BF_FILE"
                return 1
            fi
            log "bad-file: drive 1's sectors $range go bad"
            BF_SENT_AT=$(date +%s) BF_STATE=settling ;;
        settling)
            [ "$(date +%s)" -ge $((BF_SENT_AT + BF_SETTLE_S)) ] || return 0
            bad_file_send_go; BF_STATE=sending ;;
        sending)
            # (a serial console's lines end in \r\n)
            if grep -aq '\] bad-file: go' "$console"; then
                # read by the plugin: the next run's drive must not see it
                rm -f "$BF_FILE"; BF_STATE="done"
            elif [ "$BF_TRIES" -ge "$BF_GO_TRIES" ]; then
                log "FAILED: bad-file: the guest did not take the 'go' ($BF_TRIES sent)"
                return 1
            elif [ "$(date +%s)" -gt "$BF_SENT_AT" ]; then
                bad_file_send_go
            fi ;;
    esac
    return 0
}
