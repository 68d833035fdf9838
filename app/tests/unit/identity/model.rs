//! The identity types' rules, one test per rule.

use app::identity::model::*;

#[test]
fn avatar_slugs_are_their_serde_names() {
    for avatar in Avatar::ALL {
        let json = serde_json::to_string(&avatar).unwrap();
        assert_eq!(json, format!("\"{}\"", avatar.slug()));
        let back: Avatar = serde_json::from_str(&json).unwrap();
        assert_eq!(back, avatar);
    }
}

#[test]
fn display_names_take_any_script_and_tidy_spaces() {
    assert_eq!(
        DisplayName::parse("  Asha   Rao ").unwrap().as_str(),
        "Asha Rao"
    );
    assert_eq!(DisplayName::parse("कौआ").unwrap().as_str(), "कौआ");
    assert_eq!(DisplayName::parse("🐦‍⬛ crow").unwrap().as_str(), "🐦‍⬛ crow");
    assert_eq!(DisplayName::parse("ASHA").unwrap().folded(), "asha");
}

#[test]
fn display_names_refuse_blank_long_control_and_invisible() {
    for bad in [
        "",
        "   ",
        "a\u{7}b",
        "line\nbreak",
        "rtl\u{202E}olleh",
        "zero\u{200B}width",
    ] {
        assert!(DisplayName::parse(bad).is_err(), "{bad:?}");
    }
    assert!(DisplayName::parse(&"x".repeat(MAX_NAME_CHARS)).is_ok());
    assert!(DisplayName::parse(&"x".repeat(MAX_NAME_CHARS + 1)).is_err());
    assert!(
        DisplayName::parse(&"क".repeat(MAX_NAME_CHARS)).is_ok(),
        "counted in characters"
    );
}

#[test]
fn names_that_render_blank_or_hide_characters_are_refused() {
    for bad in [
        "\u{3164}",
        "\u{3164}\u{3164}",
        "\u{2800}",
        "Asha\u{2060}",
        "A\u{2061}sha",
        "\u{E0041}\u{E0042}",
        "\u{0301}\u{0301}",
        "\u{115F}\u{1160}",
        "x\u{FE00}",
        "\u{E000}",
        "\u{AD}Asha",
        "a\u{200D}b",
    ] {
        assert!(DisplayName::parse(bad).is_err(), "{bad:?}");
    }
    for good in ["🐦‍⬛ crow", "❤️ Asha", "é", "कौआ", "Zoë", "!!", "😀"] {
        assert!(DisplayName::parse(good).is_ok(), "{good:?}");
    }
}

#[test]
fn look_alike_names_fold_to_one_nickname() {
    let fold = |s: &str| DisplayName::parse(s).unwrap().folded();
    assert_eq!(fold("Asha"), fold("ASHA "));
    assert_eq!(fold("Asha"), fold("\u{0410}sha"), "Cyrillic A");
    assert_eq!(fold("Asha"), fold("Ａｓｈａ"), "full-width");
    assert_eq!(fold("rn"), fold("m"), "the skeleton of rn is m");
    assert_ne!(fold("Asha"), fold("Ravi"));
}

#[test]
fn logins_are_usernames_or_emails_and_nothing_longer() {
    assert_eq!(
        Login::parse("Asha_99").unwrap(),
        Login::Username(Username::parse("asha_99").unwrap())
    );
    assert!(matches!(Login::parse("a@b.co"), Ok(Login::Email(_))));
    assert!(Login::parse(&"a".repeat(2048)).is_err());
    assert!(Login::parse(&format!("{}@x.com", "a".repeat(2048))).is_err());
}

#[test]
fn usernames_are_lowercase_slugs() {
    assert_eq!(Username::parse(" Asha_99 ").unwrap().as_str(), "asha_99");
    for bad in ["ab", "a b c", "asha!", "आशा", &"a".repeat(21)] {
        assert!(Username::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn emails_are_lowercased_and_shaped() {
    assert_eq!(
        Email::parse(" Asha@Example.COM ").unwrap().as_str(),
        "asha@example.com"
    );
    for bad in [
        "asha",
        "@x.com",
        "asha@",
        "asha@com",
        "a@b@c.com",
        "a b@c.com",
        "asha@.com",
    ] {
        assert!(Email::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn passwords_have_bounds_and_never_print() {
    assert!(Password::parse("short").is_err());
    assert!(Password::parse(&"p".repeat(129)).is_err());
    let password = Password::parse("correct horse").unwrap();
    assert_eq!(format!("{password:?}"), "Password(..)");
}

#[test]
fn generated_user_ids_parse() {
    let id = UserId::generate();
    assert_eq!(UserId::parse(id.as_str()).unwrap(), id);
    assert!(
        UserId::parse("01ARZ3NDEKTSV4RRFFQ69G5FAI").is_err(),
        "I is not Crockford"
    );
    assert!(UserId::parse("short").is_err());
}

#[test]
fn typed_values_refuse_bad_input_when_deserialized() {
    assert!(serde_json::from_str::<DisplayName>("\"\"").is_err());
    assert!(serde_json::from_str::<Username>("\"A!\"").is_err());
    assert!(serde_json::from_str::<Avatar>("\"dragon\"").is_err());
}

#[test]
fn a_tower_of_combining_marks_is_refused_and_real_names_are_not() {
    let tower = format!("a{}", "\u{0301}".repeat(23));
    let refused = DisplayName::parse(&tower).unwrap_err();
    assert_eq!(
        refused.0,
        "A name can have at most 3 accents or marks on one letter."
    );
    // A name stored before the cap (a profile, a room board keep it for good) still loads.
    let stored: DisplayName = serde_json::from_value(serde_json::json!(tower)).unwrap();
    assert_eq!(stored.as_str(), tower);
    assert!(DisplayName::parse("a\u{0301}\u{0302}\u{0303}\u{0304}").is_err());
    assert!(DisplayName::parse("Asha a\u{0301}\u{0302}\u{0303}\u{0304}").is_err());
    assert!(
        DisplayName::parse("a\u{0301}\u{0302}\u{0303}").is_ok(),
        "three"
    );
    assert!(
        DisplayName::parse("\u{20DD}\u{20DD}\u{20DD}\u{20DD}x").is_err(),
        "enclosing marks count"
    );
    // Hindi and other names that need their marks: conjuncts (a virama each), nukta, vowel
    // signs below and above, candrabindu and anusvara; a nukta, a vowel sign and a candrabindu
    // on one consonant (क़ुँ) is three.
    for good in [
        "अर्जुन",
        "क्षितिज",
        "श्रीनिवास",
        "सिद्धार्थ",
        "पृथ्वीराज",
        "हृषीकेश",
        "ज्ञानेश्वर",
        "लक्ष्मी",
        "प्रियंका",
        "कुँवर",
        "आँचल",
        "फ़िरोज़",
        "\u{0915}\u{093C}\u{0941}\u{0901}\u{0935}\u{0930}",
        "स्त्री",
        "कौआ",
        "Nguye\u{0302}\u{0303}n",
        "สมศักดิ์",
        "Zoë",
    ] {
        assert!(DisplayName::parse(good).is_ok(), "{good:?}");
    }
}
