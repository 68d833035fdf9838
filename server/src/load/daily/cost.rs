//! The daily's bill: every instance's usage over the flights and the projector's counting of
//! them, per daily (one player's flight), by work and operation; the guests' making apart; and
//! beside it one player's room match of the same run (match 1: fresh players, as the daily's
//! players are fresh on the daily's boards).

use super::super::bill::{between, by_work, is_write, sum_of, Bill, Snapshot};
use super::super::LoadArgs;

/// The works of the boards' projector.
pub(super) const PROJECTOR: [&str; 3] = ["projector", "trees", "rewards"];

/// Prints the bill of the flights between the `flights` snapshots, per finished flight, with
/// the guests made between the `guests` snapshots apart, and beside it the rooms' player-match
/// when the run had rooms.
pub(super) fn print(
    guests: (&Snapshot, &Snapshot),
    flights: (&Snapshot, &Snapshot),
    rooms: Option<&(Snapshot, Snapshot)>,
    args: &LoadArgs,
) {
    let pricing = args.pricing();
    let dailies = flights.1.player_matches - flights.0.player_matches;
    println!(
        "daily bill: {dailies} flights, all instances, from the first start to the projector \
         caught up; per daily (one player's flight); capacity as the engine reports it"
    );
    if dailies == 0 {
        println!("  nothing was flown");
        return;
    }
    let n = dailies as f64;
    let made = between(&flights.0.figures, &flights.1.figures);
    println!("  {:9} {:18} {:>24}", "work", "operation", "per daily");
    for ((work, op), &(calls, capacity)) in &made {
        let unit = if is_write(op) { "WCU" } else { "RCU" };
        println!(
            "  {work:9} {op:18} {:8.3} calls {:8.3} {unit}",
            calls / n,
            capacity / n
        );
    }
    let works = by_work(&made);
    println!(
        "  {:9} {:>37}   {:>17}",
        "work", "per daily", "$ / 1,000 dailies"
    );
    let line = |work: &str, bill: Bill| {
        let per = bill.per(n);
        println!(
            "  {work:9} {:7.3} calls {:7.3} RCU {:7.3} WCU   ${:>16.4}",
            per.calls,
            per.read,
            per.write,
            pricing.price(per.read, per.write) * 1000.0
        );
    };
    let mut all = Bill::default();
    for (work, bill) in &works {
        line(work, *bill);
        all.add(*bill);
    }
    line("all", all);
    let guest = guest_bill(guests);
    let per_guest = guest.per((args.daily as f64).max(1.0));
    println!(
        "  making the guest, apart (POST /api/guest before the flights; a visitor's daily/start \
         makes it the same way): {:.3} calls, {:.3} RCU, {:.3} WCU per guest",
        per_guest.calls, per_guest.read, per_guest.write
    );
    let own = sum_of(&works, &[app::daily::store::DAILY]).per(n);
    let projector = sum_of(&works, &PROJECTOR).per(n);
    let all = all.per(n);
    let Some((first, after_one)) = rooms else {
        print_daily_only(own, projector, all);
        return;
    };
    let player_matches = (after_one.player_matches - first.player_matches) as f64;
    if player_matches == 0.0 {
        print_daily_only(own, projector, all);
        return;
    }
    let room_works = by_work(&between(&first.figures, &after_one.figures));
    let room_all = room_works.values().fold(Bill::default(), |mut sum, bill| {
        sum.add(*bill);
        sum
    });
    print_beside(
        &[
            ("the game's own (daily | requests + watchers)", own, {
                sum_of(&room_works, &["requests", "watchers"]).per(player_matches)
            }),
            (
                "the boards' projector all in",
                projector,
                sum_of(&room_works, &PROJECTOR).per(player_matches),
            ),
            ("all in", all, room_all.per(player_matches)),
        ],
        args,
    );
}

/// What making the guests cost: every work's calls between the two snapshots.
fn guest_bill((from, to): (&Snapshot, &Snapshot)) -> Bill {
    by_work(&between(&from.figures, &to.figures))
        .values()
        .fold(Bill::default(), |mut sum, bill| {
            sum.add(*bill);
            sum
        })
}

fn print_daily_only(own: Bill, projector: Bill, all: Bill) {
    for (what, bill) in [
        ("the daily's own requests", own),
        ("the boards' projector all in", projector),
        ("all in", all),
    ] {
        println!(
            "  per daily, {what}: {:.3} calls, {:.3} RCU, {:.3} WCU",
            bill.calls, bill.read, bill.write
        );
    }
    println!("  (no rooms in this run: no player-match to set it beside)");
}

/// The daily's lines beside the rooms' player-match, and the check: a daily costs at most one
/// player's room match.
fn print_beside(lines: &[(&str, Bill, Bill)], args: &LoadArgs) {
    let pricing = args.pricing();
    println!(
        "one daily beside one player's room match of {} rounds (match 1, fresh players, this run):",
        args.rounds
    );
    println!(
        "  {:46} {:>32}   {:>32}",
        "", "per daily", "per player-match"
    );
    for (what, daily, room) in lines {
        println!(
            "  {what:46} {:7.2} calls {:7.2} RCU {:7.2} WCU   {:7.2} calls {:7.2} RCU {:7.2} WCU",
            daily.calls, daily.read, daily.write, room.calls, room.read, room.write
        );
    }
    if let Some((_, daily, room)) = lines.last() {
        let (daily_usd, room_usd) = (
            pricing.price(daily.read, daily.write),
            pricing.price(room.read, room.write),
        );
        println!(
            "  one daily all in: {:.2}x a player-match's write units, {:.2}x its read units, \
             ${:.7} against ${:.7} ({}; target: a daily costs at most one player-match)",
            daily.write / room.write,
            daily.read / room.read,
            daily_usd,
            room_usd,
            if daily_usd <= room_usd {
                "holds"
            } else {
                "DOES NOT HOLD"
            }
        );
    }
}
