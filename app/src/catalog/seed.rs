//! The curated seed catalog: every thing the game can show, with its ruling under the flying rule in
//! `catalog.rs`. Edit here; the start-up seed writes any change to the table.

use crate::catalog::model::Category::*;
use crate::catalog::model::SeedThing;

pub const SEED: &[SeedThing] = &[
    // Birds
    SeedThing { id: "crow", en: "Crow", hi: "कौआ", hi_latin: "Kauwa", emoji: "🐦‍⬛", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "bird", en: "Bird", hi: "चिड़िया", hi_latin: "Chidiya", emoji: "🐦", flies: true, category: Bird, note: Some("Birds as a kind fly; the few flightless ones are listed on their own."), note_hi: Some("चिड़ियाँ आम तौर पर उड़ती हैं; न उड़ने वाली गिनी-चुनी चिड़ियाँ सूची में अलग से हैं।") },
    SeedThing { id: "sparrow", en: "Sparrow", hi: "गौरैया", hi_latin: "Gauraiya", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "parrot", en: "Parrot", hi: "तोता", hi_latin: "Tota", emoji: "🦜", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "pigeon", en: "Pigeon", hi: "कबूतर", hi_latin: "Kabootar", emoji: "🕊️", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "myna", en: "Myna", hi: "मैना", hi_latin: "Maina", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "koel", en: "Koel", hi: "कोयल", hi_latin: "Koyal", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "pied-cuckoo", en: "Pied cuckoo", hi: "चातक", hi_latin: "Chatak", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "hawk-cuckoo", en: "Hawk-cuckoo", hi: "पपीहा", hi_latin: "Papiha", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "eagle", en: "Eagle", hi: "बाज़", hi_latin: "Baaz", emoji: "🦅", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "shikra", en: "Shikra", hi: "शिकरा", hi_latin: "Shikra", emoji: "🦅", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "black-kite", en: "Black kite", hi: "चील", hi_latin: "Cheel", emoji: "🦅", flies: true, category: Bird, note: Some("The bird, not the toy: a bird of prey that soars for hours."), note_hi: Some("पतंग नहीं, पक्षी: एक शिकारी पक्षी जो घंटों आसमान में मँडराता रहता है।") },
    SeedThing { id: "vulture", en: "Vulture", hi: "गिद्ध", hi_latin: "Giddh", emoji: "🦅", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "owl", en: "Owl", hi: "उल्लू", hi_latin: "Ullu", emoji: "🦉", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "peacock", en: "Peacock", hi: "मोर", hi_latin: "Mor", emoji: "🦚", flies: true, category: Bird, note: Some("Long tail and all, it flies up to trees and rooftops."), note_hi: Some("इतनी लंबी पूँछ होते हुए भी यह उड़कर पेड़ों और छतों पर जा बैठता है।") },
    SeedThing { id: "hen", en: "Hen", hi: "मुर्गी", hi_latin: "Murgi", emoji: "🐔", flies: true, category: Bird, note: Some("Flutters up onto a perch or over a fence: a short flight still counts."), note_hi: Some("फड़फड़ाकर अड्डे पर या बाड़ के पार उड़ जाती है: छोटी उड़ान भी गिनी जाती है।") },
    SeedThing { id: "rooster", en: "Rooster", hi: "मुर्गा", hi_latin: "Murga", emoji: "🐓", flies: true, category: Bird, note: Some("Like the hen, it flaps up onto walls and perches: a short flight still counts."), note_hi: Some("मुर्गी की तरह यह भी पंख फड़फड़ाकर दीवारों और अड्डों पर जा बैठता है: छोटी उड़ान भी गिनी जाती है।") },
    SeedThing { id: "duck", en: "Duck", hi: "बत्तख", hi_latin: "Batakh", emoji: "🦆", flies: true, category: Bird, note: Some("Wild ducks fly far, and even farm ducks flap up in short flutters."), note_hi: Some("जंगली बत्तखें दूर-दूर तक उड़ती हैं, और पालतू बत्तखें भी फड़फड़ाकर थोड़ा-सा उड़ लेती हैं।") },
    SeedThing { id: "swan", en: "Swan", hi: "हंस", hi_latin: "Hans", emoji: "🦢", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "sarus-crane", en: "Sarus crane", hi: "सारस", hi_latin: "Saras", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "heron", en: "Heron", hi: "बगुला", hi_latin: "Bagula", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "cormorant", en: "Cormorant", hi: "पनकौआ", hi_latin: "Pankauwa", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "kingfisher", en: "Kingfisher", hi: "किलकिला", hi_latin: "Kilkila", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "woodpecker", en: "Woodpecker", hi: "कठफोड़वा", hi_latin: "Kathphodwa", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "bulbul", en: "Bulbul", hi: "बुलबुल", hi_latin: "Bulbul", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "hornbill", en: "Hornbill", hi: "धनेश", hi_latin: "Dhanesh", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "weaver-bird", en: "Weaver bird", hi: "बया", hi_latin: "Baya", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "tailorbird", en: "Tailorbird", hi: "दर्ज़ी चिड़िया", hi_latin: "Darzi chidiya", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "drongo", en: "Drongo", hi: "कोतवाल", hi_latin: "Kotwal", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "hoopoe", en: "Hoopoe", hi: "हुदहुद", hi_latin: "Hudhud", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "swallow", en: "Swallow", hi: "अबाबील", hi_latin: "Ababeel", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "lapwing", en: "Lapwing", hi: "टिटहरी", hi_latin: "Titahri", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "partridge", en: "Partridge", hi: "तीतर", hi_latin: "Teetar", emoji: "🐦", flies: true, category: Bird, note: Some("A ground bird, but it bursts up and flies when startled."), note_hi: Some("ज़मीन पर रहने वाला पक्षी है, पर चौंकने पर फुर्र से उड़ जाता है।") },
    SeedThing { id: "quail", en: "Quail", hi: "बटेर", hi_latin: "Bater", emoji: "🐦", flies: true, category: Bird, note: Some("A small ground bird that still flies in quick bursts."), note_hi: Some("ज़मीन पर रहने वाला छोटा पक्षी है, फिर भी फुर्ती से छोटी-छोटी उड़ानें भरता है।") },
    SeedThing { id: "chukar", en: "Chukar", hi: "चकोर", hi_latin: "Chakor", emoji: "🐦", flies: true, category: Bird, note: Some("A hill partridge that runs a lot but flies when it must."), note_hi: Some("पहाड़ों का तीतर है, जो ज़्यादातर दौड़ता है पर ज़रूरत पड़ने पर उड़ भी जाता है।") },
    SeedThing { id: "indian-roller", en: "Indian roller", hi: "नीलकंठ", hi_latin: "Neelkanth", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "jungle-babbler", en: "Jungle babbler", hi: "सात भाई", hi_latin: "Saat bhai", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "bee-eater", en: "Bee-eater", hi: "पतरिंगा", hi_latin: "Patringa", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "golden-oriole", en: "Golden oriole", hi: "पीलक", hi_latin: "Peelak", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "coppersmith-barbet", en: "Coppersmith barbet", hi: "ठठेरा", hi_latin: "Thathera", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "sunbird", en: "Sunbird", hi: "शकरखोरा", hi_latin: "Shakarkhora", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "munia", en: "Munia", hi: "मुनिया", hi_latin: "Muniya", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "wagtail", en: "Wagtail", hi: "खंजन", hi_latin: "Khanjan", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "paradise-flycatcher", en: "Paradise flycatcher", hi: "दूधराज", hi_latin: "Doodhraj", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "indian-pitta", en: "Indian pitta", hi: "नवरंग", hi_latin: "Navrang", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "himalayan-monal", en: "Himalayan monal", hi: "मोनाल", hi_latin: "Monal", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "great-indian-bustard", en: "Great Indian bustard", hi: "गोडावण", hi_latin: "Godawan", emoji: "🐦", flies: true, category: Bird, note: Some("One of the heaviest flying birds, but it does fly."), note_hi: Some("उड़ने वाले सबसे भारी पक्षियों में से एक है, फिर भी यह उड़ता है।") },
    SeedThing { id: "flamingo", en: "Flamingo", hi: "फ्लेमिंगो", hi_latin: "Flamingo", emoji: "🦩", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "seagull", en: "Seagull", hi: "सीगल", hi_latin: "Seagull", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "pelican", en: "Pelican", hi: "पेलिकन", hi_latin: "Pelican", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "albatross", en: "Albatross", hi: "अल्बाट्रॉस", hi_latin: "Albatross", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "hummingbird", en: "Hummingbird", hi: "हमिंगबर्ड", hi_latin: "Hummingbird", emoji: "🐦", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "lovebird", en: "Lovebird", hi: "लवबर्ड", hi_latin: "Lovebird", emoji: "🦜", flies: true, category: Bird, note: None, note_hi: None },
    SeedThing { id: "penguin", en: "Penguin", hi: "पेंगुइन", hi_latin: "Penguin", emoji: "🐧", flies: false, category: Bird, note: Some("A bird whose wings became flippers: it swims but cannot fly."), note_hi: Some("ऐसा पक्षी जिसके पंख तैरने वाले चप्पू बन गए हैं: यह तैरता है, पर उड़ नहीं सकता।") },
    SeedThing { id: "ostrich", en: "Ostrich", hi: "शुतुरमुर्ग", hi_latin: "Shuturmurg", emoji: "🐦", flies: false, category: Bird, note: Some("Far too heavy to fly; it runs instead."), note_hi: Some("उड़ने के लिए बहुत ज़्यादा भारी है; इसलिए यह दौड़ता है।") },
    SeedThing { id: "emu", en: "Emu", hi: "एमू", hi_latin: "Emu", emoji: "🐦", flies: false, category: Bird, note: Some("A big running bird with tiny wings; it cannot fly."), note_hi: Some("छोटे-छोटे पंखों वाला बड़ा पक्षी, जो दौड़ता है; यह उड़ नहीं सकता।") },
    SeedThing { id: "kiwi-bird", en: "Kiwi bird", hi: "कीवी पक्षी", hi_latin: "Kiwi pakshi", emoji: "🐦", flies: false, category: Bird, note: Some("The bird, not the fruit: its wings are tiny and it cannot fly."), note_hi: Some("फल नहीं, पक्षी: इसके पंख बहुत छोटे हैं और यह उड़ नहीं सकता।") },
    SeedThing { id: "dodo", en: "Dodo", hi: "डोडो", hi_latin: "Dodo", emoji: "🦤", flies: false, category: Bird, note: Some("A flightless bird, now extinct; it could never fly."), note_hi: Some("न उड़ने वाला पक्षी, जो अब विलुप्त हो चुका है; यह कभी उड़ नहीं सकता था।") },
    SeedThing { id: "cassowary", en: "Cassowary", hi: "कैसोवरी", hi_latin: "Cassowary", emoji: "🐦", flies: false, category: Bird, note: Some("A heavy forest bird that runs and cannot fly."), note_hi: Some("जंगल का भारी पक्षी, जो दौड़ता है पर उड़ नहीं सकता।") },
    // Insects and other small creatures
    SeedThing { id: "butterfly", en: "Butterfly", hi: "तितली", hi_latin: "Titli", emoji: "🦋", flies: true, category: Insect, note: Some("Judged as the thing, not the name: an insect with wings that flies."), note_hi: Some("नाम से नहीं, असली चीज़ से परखा गया: यह पंखों वाला कीड़ा है, जो उड़ता है।") },
    SeedThing { id: "moth", en: "Moth", hi: "पतंगा", hi_latin: "Patanga", emoji: "🦋", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "bee", en: "Bee", hi: "मधुमक्खी", hi_latin: "Madhumakkhi", emoji: "🐝", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "bumblebee", en: "Bumblebee", hi: "भौंरा", hi_latin: "Bhaunra", emoji: "🐝", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "wasp", en: "Wasp", hi: "ततैया", hi_latin: "Tataiya", emoji: "🐝", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "housefly", en: "Housefly", hi: "मक्खी", hi_latin: "Makkhi", emoji: "🪰", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "mosquito", en: "Mosquito", hi: "मच्छर", hi_latin: "Machchhar", emoji: "🦟", flies: true, category: Insect, note: Some("Tiny, but it flies on fast-beating wings."), note_hi: Some("छोटा-सा है, पर तेज़ी से फड़फड़ाते पंखों से उड़ता है।") },
    SeedThing { id: "dragonfly", en: "Dragonfly", hi: "ड्रैगनफ़्लाई", hi_latin: "Dragonfly", emoji: "🪰", flies: true, category: Insect, note: Some("Judged as the thing, not the name: an insect with four wings, not a dragon."), note_hi: Some("नाम से नहीं, असली चीज़ से परखा गया: यह चार पंखों वाला कीड़ा है, ड्रैगन नहीं।") },
    SeedThing { id: "ladybird", en: "Ladybird", hi: "लेडीबर्ड", hi_latin: "Ladybird", emoji: "🐞", flies: true, category: Insect, note: Some("A beetle, not a bird, but it flies on wings hidden under its red shell."), note_hi: Some("यह पक्षी नहीं, भृंग (एक कीड़ा) है, पर अपने लाल कवच के नीचे छिपे पंखों से उड़ता है।") },
    SeedThing { id: "dung-beetle", en: "Dung beetle", hi: "गुबरैला", hi_latin: "Gubraila", emoji: "🪲", flies: true, category: Insect, note: Some("Its wings fold under a hard shell, but it does fly."), note_hi: Some("इसके पंख सख़्त कवच के नीचे मुड़े रहते हैं, पर यह उड़ता ज़रूर है।") },
    SeedThing { id: "locust", en: "Locust", hi: "टिड्डी", hi_latin: "Tiddi", emoji: "🦗", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "firefly", en: "Firefly", hi: "जुगनू", hi_latin: "Jugnu", emoji: "✨", flies: true, category: Insect, note: None, note_hi: None },
    SeedThing { id: "ant", en: "Ant", hi: "चींटी", hi_latin: "Cheenti", emoji: "🐜", flies: false, category: Insect, note: Some("The ants we see are wingless workers; only a few queens and males ever fly."), note_hi: Some("हमें दिखने वाली चींटियाँ बिना पंखों वाली मज़दूर होती हैं; बस कुछ रानी और नर चींटियाँ ही कभी उड़ती हैं।") },
    SeedThing { id: "caterpillar", en: "Caterpillar", hi: "इल्ली", hi_latin: "Illi", emoji: "🐛", flies: false, category: Insect, note: Some("It only crawls; it flies only after it turns into a butterfly or moth."), note_hi: Some("यह बस रेंगती है; तितली या पतंगा बनने के बाद ही उड़ती है।") },
    SeedThing { id: "earthworm", en: "Earthworm", hi: "केंचुआ", hi_latin: "Kenchua", emoji: "🪱", flies: false, category: Insect, note: None, note_hi: None },
    SeedThing { id: "snail", en: "Snail", hi: "घोंघा", hi_latin: "Ghongha", emoji: "🐌", flies: false, category: Insect, note: None, note_hi: None },
    SeedThing { id: "scorpion", en: "Scorpion", hi: "बिच्छू", hi_latin: "Bichchhu", emoji: "🦂", flies: false, category: Insect, note: None, note_hi: None },
    // Mammals
    SeedThing { id: "elephant", en: "Elephant", hi: "हाथी", hi_latin: "Haathi", emoji: "🐘", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "cow", en: "Cow", hi: "गाय", hi_latin: "Gaay", emoji: "🐄", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "buffalo", en: "Buffalo", hi: "भैंस", hi_latin: "Bhains", emoji: "🐃", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "dog", en: "Dog", hi: "कुत्ता", hi_latin: "Kutta", emoji: "🐕", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "cat", en: "Cat", hi: "बिल्ली", hi_latin: "Billi", emoji: "🐈", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "tiger", en: "Tiger", hi: "बाघ", hi_latin: "Baagh", emoji: "🐅", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "lion", en: "Lion", hi: "शेर", hi_latin: "Sher", emoji: "🦁", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "monkey", en: "Monkey", hi: "बंदर", hi_latin: "Bandar", emoji: "🐒", flies: false, category: Mammal, note: Some("Leaps from branch to branch, but a jump is not flying."), note_hi: Some("एक डाल से दूसरी डाल पर छलाँग लगाता है, पर छलाँग उड़ना नहीं है।") },
    SeedThing { id: "camel", en: "Camel", hi: "ऊँट", hi_latin: "Oont", emoji: "🐫", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "horse", en: "Horse", hi: "घोड़ा", hi_latin: "Ghoda", emoji: "🐎", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "donkey", en: "Donkey", hi: "गधा", hi_latin: "Gadha", emoji: "🐴", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "goat", en: "Goat", hi: "बकरी", hi_latin: "Bakri", emoji: "🐐", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "sheep", en: "Sheep", hi: "भेड़", hi_latin: "Bhed", emoji: "🐑", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "rabbit", en: "Rabbit", hi: "खरगोश", hi_latin: "Khargosh", emoji: "🐇", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "mouse", en: "Mouse", hi: "चूहा", hi_latin: "Chooha", emoji: "🐁", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "squirrel", en: "Squirrel", hi: "गिलहरी", hi_latin: "Gilhari", emoji: "🐿️", flies: false, category: Mammal, note: Some("An ordinary squirrel only climbs and jumps; the flying squirrel is a different animal."), note_hi: Some("आम गिलहरी बस चढ़ती और कूदती है; उड़न गिलहरी एक अलग जानवर है।") },
    SeedThing { id: "flying-squirrel", en: "Flying squirrel", hi: "उड़न गिलहरी", hi_latin: "Udan gilhari", emoji: "🐿️", flies: true, category: Mammal, note: Some("Glides from tree to tree on flaps of skin: gliding counts."), note_hi: Some("खाल की झिल्लियों के सहारे एक पेड़ से दूसरे पेड़ तक हवा में तैरती है: हवा में तैरना (ग्लाइड) भी उड़ान में गिना जाता है।") },
    SeedThing { id: "bat", en: "Bat", hi: "चमगादड़", hi_latin: "Chamgadar", emoji: "🦇", flies: true, category: Mammal, note: Some("A mammal, not a bird, but it has real wings and flies."), note_hi: Some("पक्षी नहीं, स्तनधारी है, पर इसके असली पंख हैं और यह उड़ता है।") },
    SeedThing { id: "bear", en: "Bear", hi: "भालू", hi_latin: "Bhaalu", emoji: "🐻", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "deer", en: "Deer", hi: "हिरन", hi_latin: "Hiran", emoji: "🦌", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "giraffe", en: "Giraffe", hi: "जिराफ़", hi_latin: "Jiraaf", emoji: "🦒", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "kangaroo", en: "Kangaroo", hi: "कंगारू", hi_latin: "Kangaroo", emoji: "🦘", flies: false, category: Mammal, note: Some("Jumps high and far, but a jump always comes straight back down."), note_hi: Some("ऊँची और लंबी छलाँग लगाता है, पर छलाँग हमेशा सीधे नीचे लौट आती है।") },
    SeedThing { id: "rhinoceros", en: "Rhinoceros", hi: "गैंडा", hi_latin: "Gainda", emoji: "🦏", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "hippopotamus", en: "Hippopotamus", hi: "दरियाई घोड़ा", hi_latin: "Dariyai ghoda", emoji: "🦛", flies: false, category: Mammal, note: None, note_hi: None },
    SeedThing { id: "fox", en: "Fox", hi: "लोमड़ी", hi_latin: "Lomdi", emoji: "🦊", flies: false, category: Mammal, note: None, note_hi: None },
    // Water life
    SeedThing { id: "fish", en: "Fish", hi: "मछली", hi_latin: "Machhli", emoji: "🐟", flies: false, category: WaterLife, note: Some("Most fish only swim; the flying fish is listed on its own."), note_hi: Some("ज़्यादातर मछलियाँ बस तैरती हैं; उड़न मछली सूची में अलग से है।") },
    SeedThing { id: "flying-fish", en: "Flying fish", hi: "उड़न मछली", hi_latin: "Udan machhli", emoji: "🐟", flies: true, category: WaterLife, note: Some("Glides on its fins for tens of metres: gliding counts."), note_hi: Some("अपने पंख फैलाकर दसियों मीटर तक हवा में तैरती है: हवा में तैरना (ग्लाइड) भी उड़ान में गिना जाता है।") },
    SeedThing { id: "shark", en: "Shark", hi: "शार्क", hi_latin: "Shark", emoji: "🦈", flies: false, category: WaterLife, note: None, note_hi: None },
    SeedThing { id: "whale", en: "Whale", hi: "व्हेल", hi_latin: "Whale", emoji: "🐋", flies: false, category: WaterLife, note: None, note_hi: None },
    SeedThing { id: "dolphin", en: "Dolphin", hi: "डॉल्फ़िन", hi_latin: "Dolphin", emoji: "🐬", flies: false, category: WaterLife, note: Some("Leaps out of the water, but a leap falls straight back."), note_hi: Some("पानी से उछलकर बाहर आती है, पर छलाँग के बाद सीधे वापस गिर जाती है।") },
    SeedThing { id: "octopus", en: "Octopus", hi: "ऑक्टोपस", hi_latin: "Octopus", emoji: "🐙", flies: false, category: WaterLife, note: None, note_hi: None },
    SeedThing { id: "crab", en: "Crab", hi: "केकड़ा", hi_latin: "Kekda", emoji: "🦀", flies: false, category: WaterLife, note: None, note_hi: None },
    SeedThing { id: "prawn", en: "Prawn", hi: "झींगा", hi_latin: "Jhinga", emoji: "🦐", flies: false, category: WaterLife, note: None, note_hi: None },
    SeedThing { id: "starfish", en: "Starfish", hi: "तारामछली", hi_latin: "Taramachhli", emoji: "⭐", flies: false, category: WaterLife, note: Some("Judged as the thing, not the name: it crawls slowly on the sea floor."), note_hi: Some("नाम से नहीं, असली चीज़ से परखा गया: यह समुद्र की तली पर धीरे-धीरे रेंगती है।") },
    SeedThing { id: "seal", en: "Seal", hi: "सील", hi_latin: "Seal", emoji: "🦭", flies: false, category: WaterLife, note: None, note_hi: None },
    // Reptiles and amphibians
    SeedThing { id: "frog", en: "Frog", hi: "मेंढक", hi_latin: "Mendhak", emoji: "🐸", flies: false, category: ReptileAmphibian, note: Some("Jumps and swims; a jump is not flying."), note_hi: Some("कूदता है और तैरता है; कूदना उड़ना नहीं है।") },
    SeedThing { id: "flying-frog", en: "Flying frog", hi: "उड़न मेंढक", hi_latin: "Udan mendhak", emoji: "🐸", flies: true, category: ReptileAmphibian, note: Some("Glides between trees on its wide webbed feet: gliding counts."), note_hi: Some("अपने चौड़े, झिल्लीदार पैरों के सहारे पेड़ों के बीच हवा में तैरता है: हवा में तैरना (ग्लाइड) भी उड़ान में गिना जाता है।") },
    SeedThing { id: "snake", en: "Snake", hi: "साँप", hi_latin: "Saanp", emoji: "🐍", flies: false, category: ReptileAmphibian, note: Some("An ordinary snake only crawls; the flying snake is a different kind."), note_hi: Some("आम साँप बस रेंगता है; उड़न साँप एक अलग किस्म का साँप है।") },
    SeedThing { id: "flying-snake", en: "Flying snake", hi: "उड़न साँप", hi_latin: "Udan saanp", emoji: "🐍", flies: true, category: ReptileAmphibian, note: Some("Flattens its body and glides from tree to tree: gliding counts."), note_hi: Some("अपना शरीर चपटा करके एक पेड़ से दूसरे पेड़ तक हवा में तैरता है: हवा में तैरना (ग्लाइड) भी उड़ान में गिना जाता है।") },
    SeedThing { id: "lizard", en: "Lizard", hi: "छिपकली", hi_latin: "Chhipkali", emoji: "🦎", flies: false, category: ReptileAmphibian, note: Some("An ordinary lizard only climbs; the flying lizard is a different kind."), note_hi: Some("आम छिपकली बस चढ़ती है; उड़न छिपकली एक अलग किस्म की छिपकली है।") },
    SeedThing { id: "flying-lizard", en: "Flying lizard", hi: "उड़न छिपकली", hi_latin: "Udan chhipkali", emoji: "🦎", flies: true, category: ReptileAmphibian, note: Some("Spreads skin wings along its ribs and glides between trees: gliding counts."), note_hi: Some("पसलियों के साथ लगे खाल के पंख फैलाकर पेड़ों के बीच हवा में तैरती है: हवा में तैरना (ग्लाइड) भी उड़ान में गिना जाता है।") },
    SeedThing { id: "crocodile", en: "Crocodile", hi: "मगरमच्छ", hi_latin: "Magarmachh", emoji: "🐊", flies: false, category: ReptileAmphibian, note: None, note_hi: None },
    SeedThing { id: "turtle", en: "Turtle", hi: "कछुआ", hi_latin: "Kachhua", emoji: "🐢", flies: false, category: ReptileAmphibian, note: None, note_hi: None },
    SeedThing { id: "t-rex", en: "T-rex", hi: "टी-रेक्स", hi_latin: "T-rex", emoji: "🦖", flies: false, category: ReptileAmphibian, note: Some("A real dinosaur that walked on two legs and never flew."), note_hi: Some("एक असली डायनासोर, जो दो पैरों पर चलता था और कभी नहीं उड़ा।") },
    // Machines
    SeedThing { id: "aeroplane", en: "Aeroplane", hi: "हवाई जहाज़", hi_latin: "Hawai jahaaz", emoji: "✈️", flies: true, category: Machine, note: None, note_hi: None },
    SeedThing { id: "fighter-jet", en: "Fighter jet", hi: "लड़ाकू विमान", hi_latin: "Ladaku vimaan", emoji: "✈️", flies: true, category: Machine, note: None, note_hi: None },
    SeedThing { id: "helicopter", en: "Helicopter", hi: "हेलीकॉप्टर", hi_latin: "Helicopter", emoji: "🚁", flies: true, category: Machine, note: Some("Its spinning rotor lifts it straight up: a rotor counts."), note_hi: Some("इसका घूमता रोटर इसे सीधे ऊपर उठाता है: रोटर से उड़ना भी उड़ान में गिना जाता है।") },
    SeedThing { id: "rocket", en: "Rocket", hi: "रॉकेट", hi_latin: "Rocket", emoji: "🚀", flies: true, category: Machine, note: Some("Its engine drives it up through the air and on into space."), note_hi: Some("इसका इंजन इसे हवा को चीरते हुए ऊपर और फिर अंतरिक्ष तक ले जाता है।") },
    SeedThing { id: "drone", en: "Drone", hi: "ड्रोन", hi_latin: "Drone", emoji: "🚁", flies: true, category: Machine, note: Some("Flies on its own small rotors with no one on board."), note_hi: Some("अपने छोटे-छोटे रोटरों से ख़ुद उड़ता है; इसमें कोई सवार नहीं होता।") },
    SeedThing { id: "glider", en: "Glider", hi: "ग्लाइडर", hi_latin: "Glider", emoji: "✈️", flies: true, category: Machine, note: Some("Has no engine, but its long wings glide on the air: gliding counts."), note_hi: Some("इसमें इंजन नहीं होता, पर इसके लंबे पंख हवा में तैरते हैं: हवा में तैरना (ग्लाइड) भी उड़ान में गिना जाता है।") },
    SeedThing { id: "hot-air-balloon", en: "Hot-air balloon", hi: "गर्म हवा का गुब्बारा", hi_latin: "Garam hawa ka gubbara", emoji: "🎈", flies: true, category: Machine, note: Some("Hot air is lighter than the cool air around it, so the balloon rises."), note_hi: Some("गर्म हवा आस-पास की ठंडी हवा से हल्की होती है, इसलिए गुब्बारा ऊपर उठता है।") },
    SeedThing { id: "airship", en: "Airship", hi: "एयरशिप", hi_latin: "Airship", emoji: "🎈", flies: true, category: Machine, note: Some("A huge bag of gas lighter than air, pushed along by engines."), note_hi: Some("हवा से हल्की गैस से भरा एक विशाल थैला, जिसे इंजन आगे धकेलते हैं।") },
    SeedThing { id: "car", en: "Car", hi: "कार", hi_latin: "Car", emoji: "🚗", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "train", en: "Train", hi: "रेलगाड़ी", hi_latin: "Relgaadi", emoji: "🚆", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "bus", en: "Bus", hi: "बस", hi_latin: "Bus", emoji: "🚌", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "truck", en: "Truck", hi: "ट्रक", hi_latin: "Truck", emoji: "🚚", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "bicycle", en: "Bicycle", hi: "साइकिल", hi_latin: "Cycle", emoji: "🚲", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "auto-rickshaw", en: "Auto-rickshaw", hi: "ऑटो", hi_latin: "Auto", emoji: "🛺", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "tractor", en: "Tractor", hi: "ट्रैक्टर", hi_latin: "Tractor", emoji: "🚜", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "ship", en: "Ship", hi: "पानी का जहाज़", hi_latin: "Paani ka jahaaz", emoji: "🚢", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "boat", en: "Boat", hi: "नाव", hi_latin: "Naav", emoji: "⛵", flies: false, category: Machine, note: None, note_hi: None },
    SeedThing { id: "crane", en: "Crane", hi: "क्रेन", hi_latin: "Crane", emoji: "🏗️", flies: false, category: Machine, note: Some("The building machine, not the bird: it lifts loads but never leaves the ground."), note_hi: Some("पक्षी नहीं, निर्माण वाली मशीन: यह भारी सामान उठाती है, पर ज़मीन कभी नहीं छोड़ती।") },
    SeedThing { id: "ceiling-fan", en: "Ceiling fan", hi: "पंखा", hi_latin: "Pankha", emoji: "🌀", flies: false, category: Machine, note: Some("Its blades spin like a rotor, but it stays fixed to the ceiling."), note_hi: Some("इसके पंख रोटर की तरह घूमते हैं, पर यह छत से जुड़ा ही रहता है।") },
    // Toys
    SeedThing { id: "kite", en: "Kite", hi: "पतंग", hi_latin: "Patang", emoji: "🪁", flies: true, category: Toy, note: Some("The wind holds it up on its string: the wind counts."), note_hi: Some("डोर से बँधी पतंग को हवा ऊपर थामे रखती है: हवा के सहारे उड़ना भी उड़ान में गिना जाता है।") },
    SeedThing { id: "paper-plane", en: "Paper plane", hi: "कागज़ का जहाज़", hi_latin: "Kaagaz ka jahaaz", emoji: "✈️", flies: true, category: Toy, note: Some("After the throw its folded wings glide on the air instead of just falling."), note_hi: Some("फेंकने के बाद यह सीधे गिरता नहीं: इसके मुड़े हुए पंख हवा में तैरते हैं।") },
    SeedThing { id: "balloon", en: "Balloon", hi: "गुब्बारा", hi_latin: "Gubbara", emoji: "🎈", flies: true, category: Toy, note: Some("A helium balloon is lighter than air and rises by itself."), note_hi: Some("हीलियम वाला गुब्बारा हवा से हल्का होता है और ख़ुद ऊपर उठता है।") },
    SeedThing { id: "ball", en: "Ball", hi: "गेंद", hi_latin: "Gend", emoji: "⚽", flies: false, category: Toy, note: Some("It is only thrown or kicked, and then it falls."), note_hi: Some("इसे बस फेंका जाता है या ठोकर मारी जाती है, और फिर यह गिर जाती है।") },
    SeedThing { id: "paper-boat", en: "Paper boat", hi: "कागज़ की नाव", hi_latin: "Kaagaz ki naav", emoji: "⛵", flies: false, category: Toy, note: Some("Floats on water, not in the air."), note_hi: Some("यह पानी पर तैरती है, हवा में नहीं।") },
    SeedThing { id: "cricket-bat", en: "Cricket bat", hi: "बल्ला", hi_latin: "Balla", emoji: "🏏", flies: false, category: Toy, note: Some("The bat you play with, not the animal: it is only swung."), note_hi: Some("खेलने वाला बल्ला, चमगादड़ नहीं: इसे बस हाथ से घुमाया जाता है।") },
    SeedThing { id: "doll", en: "Doll", hi: "गुड़िया", hi_latin: "Gudiya", emoji: "🪆", flies: false, category: Toy, note: None, note_hi: None },
    SeedThing { id: "teddy-bear", en: "Teddy bear", hi: "टेडी बियर", hi_latin: "Teddy bear", emoji: "🧸", flies: false, category: Toy, note: None, note_hi: None },
    SeedThing { id: "water-gun", en: "Water gun", hi: "पिचकारी", hi_latin: "Pichkari", emoji: "🔫", flies: false, category: Toy, note: Some("It squirts water, but the pichkari itself stays in your hand."), note_hi: Some("यह पानी की धार छोड़ती है, पर पिचकारी ख़ुद आपके हाथ में ही रहती है।") },
    // Everyday objects
    SeedThing { id: "chair", en: "Chair", hi: "कुर्सी", hi_latin: "Kursi", emoji: "🪑", flies: false, category: Object, note: None, note_hi: None },
    SeedThing { id: "umbrella", en: "Umbrella", hi: "छाता", hi_latin: "Chhata", emoji: "☂️", flies: false, category: Object, note: Some("It catches the wind but cannot stay up: it is held or it falls."), note_hi: Some("यह हवा तो पकड़ता है, पर ख़ुद ऊपर टिक नहीं सकता: या तो इसे थामा जाता है या यह गिर जाता है।") },
    SeedThing { id: "book", en: "Book", hi: "किताब", hi_latin: "Kitaab", emoji: "📖", flies: false, category: Object, note: None, note_hi: None },
    SeedThing { id: "pencil", en: "Pencil", hi: "पेंसिल", hi_latin: "Pencil", emoji: "✏️", flies: false, category: Object, note: None, note_hi: None },
    SeedThing { id: "shoe", en: "Shoe", hi: "जूता", hi_latin: "Joota", emoji: "👟", flies: false, category: Object, note: None, note_hi: None },
    SeedThing { id: "phone", en: "Phone", hi: "फ़ोन", hi_latin: "Phone", emoji: "📱", flies: false, category: Object, note: None, note_hi: None },
    SeedThing { id: "clock", en: "Clock", hi: "घड़ी", hi_latin: "Ghadi", emoji: "⏰", flies: false, category: Object, note: Some("Judged as the thing: time flies, the clock does not."), note_hi: Some("असली चीज़ से परखा गया: समय उड़ता है, घड़ी नहीं।") },
    SeedThing { id: "suitcase", en: "Suitcase", hi: "सूटकेस", hi_latin: "Suitcase", emoji: "🧳", flies: false, category: Object, note: Some("It rides inside the plane, and being carried is not flying."), note_hi: Some("यह हवाई जहाज़ के अंदर सफ़र करता है, और किसी चीज़ में ले जाया जाना उड़ना नहीं है।") },
    SeedThing { id: "letter", en: "Letter", hi: "चिट्ठी", hi_latin: "Chitthi", emoji: "✉️", flies: false, category: Object, note: Some("It may travel by plane, but only as something carried."), note_hi: Some("यह हवाई जहाज़ से जा सकती है, पर सिर्फ़ ढोए गए सामान की तरह।") },
    SeedThing { id: "broom", en: "Broom", hi: "झाड़ू", hi_latin: "Jhaadu", emoji: "🧹", flies: false, category: Object, note: Some("A real broom only sweeps; it cannot fly by itself."), note_hi: Some("असली झाड़ू बस बुहारने के काम आती है; यह ख़ुद नहीं उड़ सकती।") },
    SeedThing { id: "flyover", en: "Flyover", hi: "फ़्लाईओवर", hi_latin: "Flyover", emoji: "🌉", flies: false, category: Object, note: Some("Judged as the thing, not the name: a bridge that carries a road."), note_hi: Some("नाम से नहीं, असली चीज़ से परखा गया: यह एक पुल है, जिस पर सड़क बनी होती है।") },
    SeedThing { id: "diya", en: "Diya", hi: "दीया", hi_latin: "Diya", emoji: "🪔", flies: false, category: Object, note: None, note_hi: None },
    // Food
    SeedThing { id: "mango", en: "Mango", hi: "आम", hi_latin: "Aam", emoji: "🥭", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "banana", en: "Banana", hi: "केला", hi_latin: "Kela", emoji: "🍌", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "apple", en: "Apple", hi: "सेब", hi_latin: "Seb", emoji: "🍎", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "watermelon", en: "Watermelon", hi: "तरबूज़", hi_latin: "Tarbooz", emoji: "🍉", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "samosa", en: "Samosa", hi: "समोसा", hi_latin: "Samosa", emoji: "🥟", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "roti", en: "Roti", hi: "रोटी", hi_latin: "Roti", emoji: "🫓", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "laddoo", en: "Laddoo", hi: "लड्डू", hi_latin: "Laddoo", emoji: "🟠", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "ice-cream", en: "Ice cream", hi: "आइसक्रीम", hi_latin: "Ice cream", emoji: "🍦", flies: false, category: Food, note: None, note_hi: None },
    SeedThing { id: "egg", en: "Egg", hi: "अंडा", hi_latin: "Anda", emoji: "🥚", flies: false, category: Food, note: Some("Even a bird's egg cannot fly; it has to hatch first."), note_hi: Some("पक्षी का अंडा भी नहीं उड़ सकता; पहले उसमें से बच्चा निकलना होता है।") },
    // Nature
    SeedThing { id: "tree", en: "Tree", hi: "पेड़", hi_latin: "Ped", emoji: "🌳", flies: false, category: Nature, note: None, note_hi: None },
    SeedThing { id: "flower", en: "Flower", hi: "फूल", hi_latin: "Phool", emoji: "🌸", flies: false, category: Nature, note: None, note_hi: None },
    SeedThing { id: "mountain", en: "Mountain", hi: "पहाड़", hi_latin: "Pahaad", emoji: "⛰️", flies: false, category: Nature, note: None, note_hi: None },
    SeedThing { id: "river", en: "River", hi: "नदी", hi_latin: "Nadi", emoji: "🏞️", flies: false, category: Nature, note: None, note_hi: None },
    SeedThing { id: "sea", en: "Sea", hi: "समुद्र", hi_latin: "Samudra", emoji: "🌊", flies: false, category: Nature, note: None, note_hi: None },
    SeedThing { id: "stone", en: "Stone", hi: "पत्थर", hi_latin: "Patthar", emoji: "🪨", flies: false, category: Nature, note: Some("It goes through the air only when thrown, and then it falls."), note_hi: Some("यह हवा में तभी जाता है जब इसे फेंका जाए, और फिर गिर जाता है।") },
    SeedThing { id: "volcano", en: "Volcano", hi: "ज्वालामुखी", hi_latin: "Jwalamukhi", emoji: "🌋", flies: false, category: Nature, note: None, note_hi: None },
    SeedThing { id: "mushroom", en: "Mushroom", hi: "कुकुरमुत्ता", hi_latin: "Kukurmutta", emoji: "🍄", flies: false, category: Nature, note: None, note_hi: None },
    // Myth and story
    SeedThing { id: "dragon", en: "Dragon", hi: "ड्रैगन", hi_latin: "Dragon", emoji: "🐉", flies: true, category: Myth, note: Some("A story creature that flies on its wings in its stories."), note_hi: Some("कहानियों का जीव, जो अपनी कहानियों में पंखों से उड़ता है।") },
    SeedThing { id: "garuda", en: "Garuda", hi: "गरुड़", hi_latin: "Garud", emoji: "🦅", flies: true, category: Myth, note: Some("Vishnu's great bird flies in the stories."), note_hi: Some("भगवान विष्णु का महान पक्षी कहानियों में उड़ता है।") },
    SeedThing { id: "jatayu", en: "Jatayu", hi: "जटायु", hi_latin: "Jatayu", emoji: "🦅", flies: true, category: Myth, note: Some("The great vulture of the Ramayana flies in the story."), note_hi: Some("रामायण का महान गिद्ध कहानी में उड़ता है।") },
    SeedThing { id: "pushpak-vimaan", en: "Pushpak vimaan", hi: "पुष्पक विमान", hi_latin: "Pushpak vimaan", emoji: "🛕", flies: true, category: Myth, note: Some("The flying chariot of the Ramayana flies in the story."), note_hi: Some("रामायण का उड़ने वाला रथ कहानी में उड़ता है।") },
    SeedThing { id: "pegasus", en: "Pegasus", hi: "पेगासस", hi_latin: "Pegasus", emoji: "🐎", flies: true, category: Myth, note: Some("The winged horse flies in its story."), note_hi: Some("पंखों वाला घोड़ा अपनी कहानी में उड़ता है।") },
    SeedThing { id: "magic-carpet", en: "Magic carpet", hi: "जादुई कालीन", hi_latin: "Jaadui kaaleen", emoji: "🪄", flies: true, category: Myth, note: Some("It flies through the sky in its stories."), note_hi: Some("यह अपनी कहानियों में आसमान में उड़ता है।") },
    SeedThing { id: "fairy", en: "Fairy", hi: "परी", hi_latin: "Pari", emoji: "🧚", flies: true, category: Myth, note: Some("Has wings and flies in her stories."), note_hi: Some("इसके पंख होते हैं और यह अपनी कहानियों में उड़ती है।") },
    SeedThing { id: "flying-saucer", en: "Flying saucer", hi: "उड़न तश्तरी", hi_latin: "Udan tashtari", emoji: "🛸", flies: true, category: Myth, note: Some("The spaceship from the stories flies in them."), note_hi: Some("कहानियों का अंतरिक्ष यान उन कहानियों में उड़ता है।") },
    SeedThing { id: "unicorn", en: "Unicorn", hi: "यूनिकॉर्न", hi_latin: "Unicorn", emoji: "🦄", flies: false, category: Myth, note: Some("A horse with one horn and no wings: it does not fly in its story."), note_hi: Some("एक सींग वाला, बिना पंखों का घोड़ा: यह अपनी कहानी में नहीं उड़ता।") },
    SeedThing { id: "mermaid", en: "Mermaid", hi: "जलपरी", hi_latin: "Jalpari", emoji: "🧜‍♀️", flies: false, category: Myth, note: Some("She swims with a fish tail and has no wings."), note_hi: Some("यह मछली जैसी पूँछ से तैरती है और इसके पंख नहीं होते।") },
];

#[cfg(test)]
mod tests {
    use super::SEED;
    use crate::catalog::model::{validate, Thing, MIN_CATALOG_SIZE};

    fn seeded() -> Vec<Thing> {
        validate(SEED).unwrap_or_else(|problems| panic!("{problems:#?}"))
    }

    fn ruling(id: &str) -> bool {
        seeded()
            .into_iter()
            .find(|t| t.id.as_str() == id)
            .unwrap_or_else(|| panic!("{id} is not in the catalog"))
            .flies
    }

    #[test]
    fn the_seed_catalog_is_valid_and_large_enough() {
        assert!(seeded().len() >= MIN_CATALOG_SIZE);
    }

    #[test]
    fn the_seed_catalog_has_enough_of_both_kinds_for_a_60_percent_draw() {
        let things = seeded();
        let flyers = things.iter().filter(|t| t.flies).count();
        assert!(
            flyers >= 60 && things.len() - flyers >= 40,
            "{flyers} of {}",
            things.len()
        );
    }

    #[test]
    fn edge_cases_follow_the_published_rule() {
        for (id, flies) in [
            ("crow", true),
            ("penguin", false),
            ("ostrich", false),
            ("kiwi-bird", false),
            ("flying-fish", true),
            ("bat", true),
            ("helicopter", true),
            ("kite", true),
            ("paper-plane", true),
            ("balloon", true),
            ("dragon", true),
            ("unicorn", false),
            ("kangaroo", false),
            ("elephant", false),
        ] {
            assert_eq!(ruling(id), flies, "{id}");
        }
    }

    #[test]
    fn every_edge_case_explains_itself() {
        for id in [
            "penguin",
            "ostrich",
            "flying-fish",
            "bat",
            "dragon",
            "unicorn",
        ] {
            let thing = seeded().into_iter().find(|t| t.id.as_str() == id).unwrap();
            assert!(thing.note.is_some(), "{id} has no note");
        }
    }

    #[test]
    fn every_note_is_in_english_and_in_hindi() {
        for entry in SEED {
            assert_eq!(
                entry.note.is_some(),
                entry.note_hi.is_some(),
                "{}: a note needs both an English and a Hindi version",
                entry.id
            );
            if let Some(hi) = entry.note_hi {
                assert!(
                    !hi.chars().any(|c| c.is_ascii_alphabetic()) && hi != entry.note.unwrap(),
                    "{}: the Hindi note is not in Devanagari: {hi:?}",
                    entry.id
                );
            }
        }
    }
}
