//! The unit tests of `app::decks::model`: a deck's rules and its lines.

use app::decks::model::*;

fn thing(en: &str, flies: bool) -> DeckThing {
    DeckThing {
        en: Some(en.to_owned()),
        hi: None,
        hi_latin: None,
        emoji: DEFAULT_EMOJI.to_owned(),
        flies,
        note: None,
    }
}

fn draft(count: usize) -> DeckDraft {
    DeckDraft {
        title: "Our pets".to_owned(),
        description: String::new(),
        lang: DeckLang::En,
        visibility: Visibility::Unlisted,
        things: (0..count)
            .map(|i| thing(&format!("Pet {i}"), i % 2 == 0))
            .collect(),
    }
}

fn check(draft: &DeckDraft) -> Result<(), DeckProblem> {
    draft.check(app::decks::emoji_ok, |text| text.contains("Badword"))
}

#[test]
fn a_deck_holds_ten_to_five_hundred_things() {
    assert_eq!(check(&draft(9)), Err(DeckProblem::TooFew));
    assert_eq!(check(&draft(10)), Ok(()));
    assert_eq!(check(&draft(500)), Ok(()));
    assert_eq!(check(&draft(501)), Err(DeckProblem::TooMany));
}

#[test]
fn every_rule_of_a_thing_is_checked_at_its_line() {
    let with = |line: usize, change: &dyn Fn(&mut DeckThing)| {
        let mut d = draft(12);
        change(&mut d.things[line - 1]);
        check(&d)
    };
    assert_eq!(
        with(3, &|t| t.en = Some("  ".into())),
        Err(DeckProblem::NameMissing { line: 3 })
    );
    assert_eq!(
        with(4, &|t| t.en = Some("x".repeat(41))),
        Err(DeckProblem::NameTooLong { line: 4 })
    );
    assert_eq!(with(4, &|t| t.en = Some("x".repeat(40))), Ok(()));
    assert_eq!(
        with(5, &|t| t.note = Some("n".repeat(101))),
        Err(DeckProblem::NoteTooLong { line: 5 })
    );
    assert_eq!(
        with(6, &|t| t.emoji = "🤖".into()),
        Err(DeckProblem::Emoji { line: 6 })
    );
    assert_eq!(with(6, &|t| t.emoji = "🐦".into()), Ok(()));
    assert_eq!(
        with(7, &|t| t.note = Some("a Badword".into())),
        Err(DeckProblem::Refused { line: 7 })
    );
    assert_eq!(
        with(8, &|t| t.en = Some("tab\there".into())),
        Err(DeckProblem::Unreadable { line: 8 })
    );
    // The same thing twice, whatever its case.
    assert_eq!(
        with(9, &|t| t.en = Some(" pet 1".into())),
        Err(DeckProblem::Duplicate { line: 9, first: 2 })
    );
    // A Hindi deck needs the Hindi name.
    let mut hindi = draft(10);
    hindi.lang = DeckLang::Both;
    assert_eq!(check(&hindi), Err(DeckProblem::NameMissing { line: 1 }));
    for t in &mut hindi.things {
        t.hi = Some(format!("{} हिन्दी", t.en.clone().unwrap()));
    }
    assert_eq!(check(&hindi), Ok(()));
}

#[test]
fn the_title_and_description_are_checked_first() {
    let mut d = draft(10);
    d.title = " ".into();
    assert_eq!(check(&d), Err(DeckProblem::TitleMissing));
    d.title = "t".repeat(61);
    assert_eq!(check(&d), Err(DeckProblem::TitleTooLong));
    d.title = "Badword pets".into();
    assert_eq!(check(&d), Err(DeckProblem::Refused { line: 0 }));
    d.title = "Pets".into();
    d.description = "d".repeat(201);
    assert_eq!(check(&d), Err(DeckProblem::DescriptionTooLong));
}

#[test]
fn pasted_lines_read_as_things_in_each_language() {
    let text = "Crow, yes\n\n🐦 Sparrow, y, small, brown, and quick\nElephant, NO\n";
    let things = parse_lines(text, DeckLang::En, app::decks::emoji_ok).unwrap();
    assert_eq!(things.len(), 3);
    assert_eq!(things[0], thing("Crow", true));
    assert_eq!(things[1].emoji, "🐦");
    assert_eq!(things[1].en.as_deref(), Some("Sparrow"));
    assert_eq!(things[1].note.as_deref(), Some("small, brown, and quick"));
    assert!(!things[2].flies);

    let both = parse_lines(
        "Crow / कौआ (Kauwa), हाँ\nStone / पत्थर, nahi, it sinks",
        DeckLang::Both,
        app::decks::emoji_ok,
    )
    .unwrap();
    assert_eq!(both[0].hi.as_deref(), Some("कौआ"));
    assert_eq!(both[0].hi_latin.as_deref(), Some("Kauwa"));
    assert!(both[0].flies && !both[1].flies);
    assert_eq!(both[1].note.as_deref(), Some("it sinks"));

    assert_eq!(
        parse_lines("Crow", DeckLang::En, app::decks::emoji_ok),
        Err(DeckProblem::Unreadable { line: 1 })
    );
    assert_eq!(
        parse_lines(
            "Crow, yes\n🤖 Robot, no",
            DeckLang::En,
            app::decks::emoji_ok
        ),
        Err(DeckProblem::Emoji { line: 2 }),
        "an emoji the pages do not draw"
    );
    assert_eq!(
        parse_lines("Crow, yes\nKite, maybe", DeckLang::En, app::decks::emoji_ok),
        Err(DeckProblem::Unreadable { line: 2 })
    );
}

#[test]
fn exported_lines_read_back_as_the_same_things() {
    for lang in [DeckLang::En, DeckLang::Hi, DeckLang::Both] {
        let things = vec![
            DeckThing {
                en: lang.ne(&DeckLang::Hi).then(|| "Crow".to_owned()),
                hi: lang.ne(&DeckLang::En).then(|| "कौआ".to_owned()),
                hi_latin: lang.ne(&DeckLang::En).then(|| "Kauwa".to_owned()),
                emoji: "🐦".to_owned(),
                flies: true,
                note: Some("it flies, of course".to_owned()),
            },
            DeckThing {
                en: lang.ne(&DeckLang::Hi).then(|| "Stone".to_owned()),
                hi: lang.ne(&DeckLang::En).then(|| "पत्थर".to_owned()),
                hi_latin: None,
                emoji: DEFAULT_EMOJI.to_owned(),
                flies: false,
                note: None,
            },
        ];
        let text = lines(&things, lang);
        assert_eq!(
            parse_lines(&text, lang, app::decks::emoji_ok).unwrap(),
            things,
            "{text}"
        );
    }
}

#[test]
fn a_deck_whose_things_would_pass_an_items_size_is_refused() {
    // 500 things at every length limit, in four-byte letters: past 350 KB.
    let mut d = draft(500);
    d.lang = DeckLang::Both;
    for (i, t) in d.things.iter_mut().enumerate() {
        let long = |c: char| format!("{i:03}{}", c.to_string().repeat(37));
        t.en = Some(long('𝐀'));
        t.hi = Some(long('𝐁'));
        t.hi_latin = Some(long('𝐂'));
        t.note = Some("𝐃".repeat(100));
    }
    assert_eq!(check(&d), Err(DeckProblem::TooLarge));
    // The same in Devanagari (three bytes a letter) fits.
    for (i, t) in d.things.iter_mut().enumerate() {
        let long = |c: char| format!("{i:03}{}", c.to_string().repeat(37));
        t.en = Some(long('क'));
        t.hi = Some(long('ख'));
        t.hi_latin = Some(long('g'));
        t.note = Some("घ".repeat(100));
    }
    assert_eq!(check(&d), Ok(()));
}
