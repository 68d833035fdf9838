//! The curated seed catalog: every thing the game can show, with its ruling under the flying rule in
//! `catalog.rs`. Edit here; the start-up seed writes any change to the table.

use crate::catalog::model::Category::*;
use crate::catalog::model::SeedThing;

pub const SEED: &[SeedThing] = &[
    // Birds
    SeedThing { id: "crow", en: "Crow", hi: "कौआ", hi_latin: "Kauwa", emoji: "🐦‍⬛", flies: true, category: Bird, note: None },
    SeedThing { id: "bird", en: "Bird", hi: "चिड़िया", hi_latin: "Chidiya", emoji: "🐦", flies: true, category: Bird, note: Some("Birds as a kind fly; the few flightless ones are listed on their own.") },
    SeedThing { id: "sparrow", en: "Sparrow", hi: "गौरैया", hi_latin: "Gauraiya", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "parrot", en: "Parrot", hi: "तोता", hi_latin: "Tota", emoji: "🦜", flies: true, category: Bird, note: None },
    SeedThing { id: "pigeon", en: "Pigeon", hi: "कबूतर", hi_latin: "Kabootar", emoji: "🕊️", flies: true, category: Bird, note: None },
    SeedThing { id: "myna", en: "Myna", hi: "मैना", hi_latin: "Maina", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "koel", en: "Koel", hi: "कोयल", hi_latin: "Koyal", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "pied-cuckoo", en: "Pied cuckoo", hi: "चातक", hi_latin: "Chatak", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "hawk-cuckoo", en: "Hawk-cuckoo", hi: "पपीहा", hi_latin: "Papiha", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "eagle", en: "Eagle", hi: "बाज़", hi_latin: "Baaz", emoji: "🦅", flies: true, category: Bird, note: None },
    SeedThing { id: "shikra", en: "Shikra", hi: "शिकरा", hi_latin: "Shikra", emoji: "🦅", flies: true, category: Bird, note: None },
    SeedThing { id: "black-kite", en: "Black kite", hi: "चील", hi_latin: "Cheel", emoji: "🦅", flies: true, category: Bird, note: Some("The bird, not the toy: a bird of prey that soars for hours.") },
    SeedThing { id: "vulture", en: "Vulture", hi: "गिद्ध", hi_latin: "Giddh", emoji: "🦅", flies: true, category: Bird, note: None },
    SeedThing { id: "owl", en: "Owl", hi: "उल्लू", hi_latin: "Ullu", emoji: "🦉", flies: true, category: Bird, note: None },
    SeedThing { id: "peacock", en: "Peacock", hi: "मोर", hi_latin: "Mor", emoji: "🦚", flies: true, category: Bird, note: Some("Long tail and all, it flies up to trees and rooftops.") },
    SeedThing { id: "hen", en: "Hen", hi: "मुर्गी", hi_latin: "Murgi", emoji: "🐔", flies: true, category: Bird, note: Some("Flutters up onto a perch or over a fence: a short flight still counts.") },
    SeedThing { id: "rooster", en: "Rooster", hi: "मुर्गा", hi_latin: "Murga", emoji: "🐓", flies: true, category: Bird, note: Some("Like the hen, it flaps up onto walls and perches: a short flight still counts.") },
    SeedThing { id: "duck", en: "Duck", hi: "बत्तख", hi_latin: "Batakh", emoji: "🦆", flies: true, category: Bird, note: Some("Wild ducks fly far, and even farm ducks flap up in short flutters.") },
    SeedThing { id: "swan", en: "Swan", hi: "हंस", hi_latin: "Hans", emoji: "🦢", flies: true, category: Bird, note: None },
    SeedThing { id: "sarus-crane", en: "Sarus crane", hi: "सारस", hi_latin: "Saras", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "heron", en: "Heron", hi: "बगुला", hi_latin: "Bagula", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "cormorant", en: "Cormorant", hi: "पनकौआ", hi_latin: "Pankauwa", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "kingfisher", en: "Kingfisher", hi: "किलकिला", hi_latin: "Kilkila", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "woodpecker", en: "Woodpecker", hi: "कठफोड़वा", hi_latin: "Kathphodwa", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "bulbul", en: "Bulbul", hi: "बुलबुल", hi_latin: "Bulbul", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "hornbill", en: "Hornbill", hi: "धनेश", hi_latin: "Dhanesh", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "weaver-bird", en: "Weaver bird", hi: "बया", hi_latin: "Baya", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "tailorbird", en: "Tailorbird", hi: "दर्ज़ी चिड़िया", hi_latin: "Darzi chidiya", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "drongo", en: "Drongo", hi: "कोतवाल", hi_latin: "Kotwal", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "hoopoe", en: "Hoopoe", hi: "हुदहुद", hi_latin: "Hudhud", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "swallow", en: "Swallow", hi: "अबाबील", hi_latin: "Ababeel", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "lapwing", en: "Lapwing", hi: "टिटहरी", hi_latin: "Titahri", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "partridge", en: "Partridge", hi: "तीतर", hi_latin: "Teetar", emoji: "🐦", flies: true, category: Bird, note: Some("A ground bird, but it bursts up and flies when startled.") },
    SeedThing { id: "quail", en: "Quail", hi: "बटेर", hi_latin: "Bater", emoji: "🐦", flies: true, category: Bird, note: Some("A small ground bird that still flies in quick bursts.") },
    SeedThing { id: "chukar", en: "Chukar", hi: "चकोर", hi_latin: "Chakor", emoji: "🐦", flies: true, category: Bird, note: Some("A hill partridge that runs a lot but flies when it must.") },
    SeedThing { id: "indian-roller", en: "Indian roller", hi: "नीलकंठ", hi_latin: "Neelkanth", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "jungle-babbler", en: "Jungle babbler", hi: "सात भाई", hi_latin: "Saat bhai", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "bee-eater", en: "Bee-eater", hi: "पतरिंगा", hi_latin: "Patringa", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "golden-oriole", en: "Golden oriole", hi: "पीलक", hi_latin: "Peelak", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "coppersmith-barbet", en: "Coppersmith barbet", hi: "ठठेरा", hi_latin: "Thathera", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "sunbird", en: "Sunbird", hi: "शकरखोरा", hi_latin: "Shakarkhora", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "munia", en: "Munia", hi: "मुनिया", hi_latin: "Muniya", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "wagtail", en: "Wagtail", hi: "खंजन", hi_latin: "Khanjan", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "paradise-flycatcher", en: "Paradise flycatcher", hi: "दूधराज", hi_latin: "Doodhraj", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "indian-pitta", en: "Indian pitta", hi: "नवरंग", hi_latin: "Navrang", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "himalayan-monal", en: "Himalayan monal", hi: "मोनाल", hi_latin: "Monal", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "great-indian-bustard", en: "Great Indian bustard", hi: "गोडावण", hi_latin: "Godawan", emoji: "🐦", flies: true, category: Bird, note: Some("One of the heaviest flying birds, but it does fly.") },
    SeedThing { id: "flamingo", en: "Flamingo", hi: "फ्लेमिंगो", hi_latin: "Flamingo", emoji: "🦩", flies: true, category: Bird, note: None },
    SeedThing { id: "seagull", en: "Seagull", hi: "सीगल", hi_latin: "Seagull", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "pelican", en: "Pelican", hi: "पेलिकन", hi_latin: "Pelican", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "albatross", en: "Albatross", hi: "अल्बाट्रॉस", hi_latin: "Albatross", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "hummingbird", en: "Hummingbird", hi: "हमिंगबर्ड", hi_latin: "Hummingbird", emoji: "🐦", flies: true, category: Bird, note: None },
    SeedThing { id: "lovebird", en: "Lovebird", hi: "लवबर्ड", hi_latin: "Lovebird", emoji: "🦜", flies: true, category: Bird, note: None },
    SeedThing { id: "penguin", en: "Penguin", hi: "पेंगुइन", hi_latin: "Penguin", emoji: "🐧", flies: false, category: Bird, note: Some("A bird whose wings became flippers: it swims but cannot fly.") },
    SeedThing { id: "ostrich", en: "Ostrich", hi: "शुतुरमुर्ग", hi_latin: "Shuturmurg", emoji: "🐦", flies: false, category: Bird, note: Some("Far too heavy to fly; it runs instead.") },
    SeedThing { id: "emu", en: "Emu", hi: "एमू", hi_latin: "Emu", emoji: "🐦", flies: false, category: Bird, note: Some("A big running bird with tiny wings; it cannot fly.") },
    SeedThing { id: "kiwi-bird", en: "Kiwi bird", hi: "कीवी पक्षी", hi_latin: "Kiwi pakshi", emoji: "🐦", flies: false, category: Bird, note: Some("The bird, not the fruit: its wings are tiny and it cannot fly.") },
    SeedThing { id: "dodo", en: "Dodo", hi: "डोडो", hi_latin: "Dodo", emoji: "🦤", flies: false, category: Bird, note: Some("A flightless bird, now extinct; it could never fly.") },
    SeedThing { id: "cassowary", en: "Cassowary", hi: "कैसोवरी", hi_latin: "Cassowary", emoji: "🐦", flies: false, category: Bird, note: Some("A heavy forest bird that runs and cannot fly.") },
    // Insects and other small creatures
    SeedThing { id: "butterfly", en: "Butterfly", hi: "तितली", hi_latin: "Titli", emoji: "🦋", flies: true, category: Insect, note: Some("Judged as the thing, not the name: an insect with wings that flies.") },
    SeedThing { id: "moth", en: "Moth", hi: "पतंगा", hi_latin: "Patanga", emoji: "🦋", flies: true, category: Insect, note: None },
    SeedThing { id: "bee", en: "Bee", hi: "मधुमक्खी", hi_latin: "Madhumakkhi", emoji: "🐝", flies: true, category: Insect, note: None },
    SeedThing { id: "bumblebee", en: "Bumblebee", hi: "भौंरा", hi_latin: "Bhaunra", emoji: "🐝", flies: true, category: Insect, note: None },
    SeedThing { id: "wasp", en: "Wasp", hi: "ततैया", hi_latin: "Tataiya", emoji: "🐝", flies: true, category: Insect, note: None },
    SeedThing { id: "housefly", en: "Housefly", hi: "मक्खी", hi_latin: "Makkhi", emoji: "🪰", flies: true, category: Insect, note: None },
    SeedThing { id: "mosquito", en: "Mosquito", hi: "मच्छर", hi_latin: "Machchhar", emoji: "🦟", flies: true, category: Insect, note: Some("Tiny, but it flies on fast-beating wings.") },
    SeedThing { id: "dragonfly", en: "Dragonfly", hi: "ड्रैगनफ़्लाई", hi_latin: "Dragonfly", emoji: "🪰", flies: true, category: Insect, note: Some("Judged as the thing, not the name: an insect with four wings, not a dragon.") },
    SeedThing { id: "ladybird", en: "Ladybird", hi: "लेडीबर्ड", hi_latin: "Ladybird", emoji: "🐞", flies: true, category: Insect, note: Some("A beetle, not a bird, but it flies on wings hidden under its red shell.") },
    SeedThing { id: "dung-beetle", en: "Dung beetle", hi: "गुबरैला", hi_latin: "Gubraila", emoji: "🪲", flies: true, category: Insect, note: Some("Its wings fold under a hard shell, but it does fly.") },
    SeedThing { id: "locust", en: "Locust", hi: "टिड्डी", hi_latin: "Tiddi", emoji: "🦗", flies: true, category: Insect, note: None },
    SeedThing { id: "firefly", en: "Firefly", hi: "जुगनू", hi_latin: "Jugnu", emoji: "✨", flies: true, category: Insect, note: None },
    SeedThing { id: "ant", en: "Ant", hi: "चींटी", hi_latin: "Cheenti", emoji: "🐜", flies: false, category: Insect, note: Some("The ants we see are wingless workers; only a few queens and males ever fly.") },
    SeedThing { id: "caterpillar", en: "Caterpillar", hi: "इल्ली", hi_latin: "Illi", emoji: "🐛", flies: false, category: Insect, note: Some("It only crawls; it flies only after it turns into a butterfly or moth.") },
    SeedThing { id: "earthworm", en: "Earthworm", hi: "केंचुआ", hi_latin: "Kenchua", emoji: "🪱", flies: false, category: Insect, note: None },
    SeedThing { id: "snail", en: "Snail", hi: "घोंघा", hi_latin: "Ghongha", emoji: "🐌", flies: false, category: Insect, note: None },
    SeedThing { id: "scorpion", en: "Scorpion", hi: "बिच्छू", hi_latin: "Bichchhu", emoji: "🦂", flies: false, category: Insect, note: None },
    // Mammals
    SeedThing { id: "elephant", en: "Elephant", hi: "हाथी", hi_latin: "Haathi", emoji: "🐘", flies: false, category: Mammal, note: None },
    SeedThing { id: "cow", en: "Cow", hi: "गाय", hi_latin: "Gaay", emoji: "🐄", flies: false, category: Mammal, note: None },
    SeedThing { id: "buffalo", en: "Buffalo", hi: "भैंस", hi_latin: "Bhains", emoji: "🐃", flies: false, category: Mammal, note: None },
    SeedThing { id: "dog", en: "Dog", hi: "कुत्ता", hi_latin: "Kutta", emoji: "🐕", flies: false, category: Mammal, note: None },
    SeedThing { id: "cat", en: "Cat", hi: "बिल्ली", hi_latin: "Billi", emoji: "🐈", flies: false, category: Mammal, note: None },
    SeedThing { id: "tiger", en: "Tiger", hi: "बाघ", hi_latin: "Baagh", emoji: "🐅", flies: false, category: Mammal, note: None },
    SeedThing { id: "lion", en: "Lion", hi: "शेर", hi_latin: "Sher", emoji: "🦁", flies: false, category: Mammal, note: None },
    SeedThing { id: "monkey", en: "Monkey", hi: "बंदर", hi_latin: "Bandar", emoji: "🐒", flies: false, category: Mammal, note: Some("Leaps from branch to branch, but a jump is not flying.") },
    SeedThing { id: "camel", en: "Camel", hi: "ऊँट", hi_latin: "Oont", emoji: "🐫", flies: false, category: Mammal, note: None },
    SeedThing { id: "horse", en: "Horse", hi: "घोड़ा", hi_latin: "Ghoda", emoji: "🐎", flies: false, category: Mammal, note: None },
    SeedThing { id: "donkey", en: "Donkey", hi: "गधा", hi_latin: "Gadha", emoji: "🐴", flies: false, category: Mammal, note: None },
    SeedThing { id: "goat", en: "Goat", hi: "बकरी", hi_latin: "Bakri", emoji: "🐐", flies: false, category: Mammal, note: None },
    SeedThing { id: "sheep", en: "Sheep", hi: "भेड़", hi_latin: "Bhed", emoji: "🐑", flies: false, category: Mammal, note: None },
    SeedThing { id: "rabbit", en: "Rabbit", hi: "खरगोश", hi_latin: "Khargosh", emoji: "🐇", flies: false, category: Mammal, note: None },
    SeedThing { id: "mouse", en: "Mouse", hi: "चूहा", hi_latin: "Chooha", emoji: "🐁", flies: false, category: Mammal, note: None },
    SeedThing { id: "squirrel", en: "Squirrel", hi: "गिलहरी", hi_latin: "Gilhari", emoji: "🐿️", flies: false, category: Mammal, note: Some("An ordinary squirrel only climbs and jumps; the flying squirrel is a different animal.") },
    SeedThing { id: "flying-squirrel", en: "Flying squirrel", hi: "उड़न गिलहरी", hi_latin: "Udan gilhari", emoji: "🐿️", flies: true, category: Mammal, note: Some("Glides from tree to tree on flaps of skin: gliding counts.") },
    SeedThing { id: "bat", en: "Bat", hi: "चमगादड़", hi_latin: "Chamgadar", emoji: "🦇", flies: true, category: Mammal, note: Some("A mammal, not a bird, but it has real wings and flies.") },
    SeedThing { id: "bear", en: "Bear", hi: "भालू", hi_latin: "Bhaalu", emoji: "🐻", flies: false, category: Mammal, note: None },
    SeedThing { id: "deer", en: "Deer", hi: "हिरन", hi_latin: "Hiran", emoji: "🦌", flies: false, category: Mammal, note: None },
    SeedThing { id: "giraffe", en: "Giraffe", hi: "जिराफ़", hi_latin: "Jiraaf", emoji: "🦒", flies: false, category: Mammal, note: None },
    SeedThing { id: "kangaroo", en: "Kangaroo", hi: "कंगारू", hi_latin: "Kangaroo", emoji: "🦘", flies: false, category: Mammal, note: Some("Jumps high and far, but a jump always comes straight back down.") },
    SeedThing { id: "rhinoceros", en: "Rhinoceros", hi: "गैंडा", hi_latin: "Gainda", emoji: "🦏", flies: false, category: Mammal, note: None },
    SeedThing { id: "hippopotamus", en: "Hippopotamus", hi: "दरियाई घोड़ा", hi_latin: "Dariyai ghoda", emoji: "🦛", flies: false, category: Mammal, note: None },
    SeedThing { id: "fox", en: "Fox", hi: "लोमड़ी", hi_latin: "Lomdi", emoji: "🦊", flies: false, category: Mammal, note: None },
    // Water life
    SeedThing { id: "fish", en: "Fish", hi: "मछली", hi_latin: "Machhli", emoji: "🐟", flies: false, category: WaterLife, note: Some("Most fish only swim; the flying fish is listed on its own.") },
    SeedThing { id: "flying-fish", en: "Flying fish", hi: "उड़न मछली", hi_latin: "Udan machhli", emoji: "🐟", flies: true, category: WaterLife, note: Some("Glides on its fins for tens of metres: gliding counts.") },
    SeedThing { id: "shark", en: "Shark", hi: "शार्क", hi_latin: "Shark", emoji: "🦈", flies: false, category: WaterLife, note: None },
    SeedThing { id: "whale", en: "Whale", hi: "व्हेल", hi_latin: "Whale", emoji: "🐋", flies: false, category: WaterLife, note: None },
    SeedThing { id: "dolphin", en: "Dolphin", hi: "डॉल्फ़िन", hi_latin: "Dolphin", emoji: "🐬", flies: false, category: WaterLife, note: Some("Leaps out of the water, but a leap falls straight back.") },
    SeedThing { id: "octopus", en: "Octopus", hi: "ऑक्टोपस", hi_latin: "Octopus", emoji: "🐙", flies: false, category: WaterLife, note: None },
    SeedThing { id: "crab", en: "Crab", hi: "केकड़ा", hi_latin: "Kekda", emoji: "🦀", flies: false, category: WaterLife, note: None },
    SeedThing { id: "prawn", en: "Prawn", hi: "झींगा", hi_latin: "Jhinga", emoji: "🦐", flies: false, category: WaterLife, note: None },
    SeedThing { id: "starfish", en: "Starfish", hi: "तारामछली", hi_latin: "Taramachhli", emoji: "⭐", flies: false, category: WaterLife, note: Some("Judged as the thing, not the name: it crawls slowly on the sea floor.") },
    SeedThing { id: "seal", en: "Seal", hi: "सील", hi_latin: "Seal", emoji: "🦭", flies: false, category: WaterLife, note: None },
    // Reptiles and amphibians
    SeedThing { id: "frog", en: "Frog", hi: "मेंढक", hi_latin: "Mendhak", emoji: "🐸", flies: false, category: ReptileAmphibian, note: Some("Jumps and swims; a jump is not flying.") },
    SeedThing { id: "flying-frog", en: "Flying frog", hi: "उड़न मेंढक", hi_latin: "Udan mendhak", emoji: "🐸", flies: true, category: ReptileAmphibian, note: Some("Glides between trees on its wide webbed feet: gliding counts.") },
    SeedThing { id: "snake", en: "Snake", hi: "साँप", hi_latin: "Saanp", emoji: "🐍", flies: false, category: ReptileAmphibian, note: Some("An ordinary snake only crawls; the flying snake is a different kind.") },
    SeedThing { id: "flying-snake", en: "Flying snake", hi: "उड़न साँप", hi_latin: "Udan saanp", emoji: "🐍", flies: true, category: ReptileAmphibian, note: Some("Flattens its body and glides from tree to tree: gliding counts.") },
    SeedThing { id: "lizard", en: "Lizard", hi: "छिपकली", hi_latin: "Chhipkali", emoji: "🦎", flies: false, category: ReptileAmphibian, note: Some("An ordinary lizard only climbs; the flying lizard is a different kind.") },
    SeedThing { id: "flying-lizard", en: "Flying lizard", hi: "उड़न छिपकली", hi_latin: "Udan chhipkali", emoji: "🦎", flies: true, category: ReptileAmphibian, note: Some("Spreads skin wings along its ribs and glides between trees: gliding counts.") },
    SeedThing { id: "crocodile", en: "Crocodile", hi: "मगरमच्छ", hi_latin: "Magarmachh", emoji: "🐊", flies: false, category: ReptileAmphibian, note: None },
    SeedThing { id: "turtle", en: "Turtle", hi: "कछुआ", hi_latin: "Kachhua", emoji: "🐢", flies: false, category: ReptileAmphibian, note: None },
    SeedThing { id: "t-rex", en: "T-rex", hi: "टी-रेक्स", hi_latin: "T-rex", emoji: "🦖", flies: false, category: ReptileAmphibian, note: Some("A real dinosaur that walked on two legs and never flew.") },
    // Machines
    SeedThing { id: "aeroplane", en: "Aeroplane", hi: "हवाई जहाज़", hi_latin: "Hawai jahaaz", emoji: "✈️", flies: true, category: Machine, note: None },
    SeedThing { id: "fighter-jet", en: "Fighter jet", hi: "लड़ाकू विमान", hi_latin: "Ladaku vimaan", emoji: "✈️", flies: true, category: Machine, note: None },
    SeedThing { id: "helicopter", en: "Helicopter", hi: "हेलीकॉप्टर", hi_latin: "Helicopter", emoji: "🚁", flies: true, category: Machine, note: Some("Its spinning rotor lifts it straight up: a rotor counts.") },
    SeedThing { id: "rocket", en: "Rocket", hi: "रॉकेट", hi_latin: "Rocket", emoji: "🚀", flies: true, category: Machine, note: Some("Its engine drives it up through the air and on into space.") },
    SeedThing { id: "drone", en: "Drone", hi: "ड्रोन", hi_latin: "Drone", emoji: "🚁", flies: true, category: Machine, note: Some("Flies on its own small rotors with no one on board.") },
    SeedThing { id: "glider", en: "Glider", hi: "ग्लाइडर", hi_latin: "Glider", emoji: "✈️", flies: true, category: Machine, note: Some("Has no engine, but its long wings glide on the air: gliding counts.") },
    SeedThing { id: "hot-air-balloon", en: "Hot-air balloon", hi: "गर्म हवा का गुब्बारा", hi_latin: "Garam hawa ka gubbara", emoji: "🎈", flies: true, category: Machine, note: Some("Hot air is lighter than the cool air around it, so the balloon rises.") },
    SeedThing { id: "airship", en: "Airship", hi: "एयरशिप", hi_latin: "Airship", emoji: "🎈", flies: true, category: Machine, note: Some("A huge bag of gas lighter than air, pushed along by engines.") },
    SeedThing { id: "car", en: "Car", hi: "कार", hi_latin: "Car", emoji: "🚗", flies: false, category: Machine, note: None },
    SeedThing { id: "train", en: "Train", hi: "रेलगाड़ी", hi_latin: "Relgaadi", emoji: "🚆", flies: false, category: Machine, note: None },
    SeedThing { id: "bus", en: "Bus", hi: "बस", hi_latin: "Bus", emoji: "🚌", flies: false, category: Machine, note: None },
    SeedThing { id: "truck", en: "Truck", hi: "ट्रक", hi_latin: "Truck", emoji: "🚚", flies: false, category: Machine, note: None },
    SeedThing { id: "bicycle", en: "Bicycle", hi: "साइकिल", hi_latin: "Cycle", emoji: "🚲", flies: false, category: Machine, note: None },
    SeedThing { id: "auto-rickshaw", en: "Auto-rickshaw", hi: "ऑटो", hi_latin: "Auto", emoji: "🛺", flies: false, category: Machine, note: None },
    SeedThing { id: "tractor", en: "Tractor", hi: "ट्रैक्टर", hi_latin: "Tractor", emoji: "🚜", flies: false, category: Machine, note: None },
    SeedThing { id: "ship", en: "Ship", hi: "पानी का जहाज़", hi_latin: "Paani ka jahaaz", emoji: "🚢", flies: false, category: Machine, note: None },
    SeedThing { id: "boat", en: "Boat", hi: "नाव", hi_latin: "Naav", emoji: "⛵", flies: false, category: Machine, note: None },
    SeedThing { id: "crane", en: "Crane", hi: "क्रेन", hi_latin: "Crane", emoji: "🏗️", flies: false, category: Machine, note: Some("The building machine, not the bird: it lifts loads but never leaves the ground.") },
    SeedThing { id: "ceiling-fan", en: "Ceiling fan", hi: "पंखा", hi_latin: "Pankha", emoji: "🌀", flies: false, category: Machine, note: Some("Its blades spin like a rotor, but it stays fixed to the ceiling.") },
    // Toys
    SeedThing { id: "kite", en: "Kite", hi: "पतंग", hi_latin: "Patang", emoji: "🪁", flies: true, category: Toy, note: Some("The wind holds it up on its string: the wind counts.") },
    SeedThing { id: "paper-plane", en: "Paper plane", hi: "कागज़ का जहाज़", hi_latin: "Kaagaz ka jahaaz", emoji: "✈️", flies: true, category: Toy, note: Some("After the throw its folded wings glide on the air instead of just falling.") },
    SeedThing { id: "balloon", en: "Balloon", hi: "गुब्बारा", hi_latin: "Gubbara", emoji: "🎈", flies: true, category: Toy, note: Some("A helium balloon is lighter than air and rises by itself.") },
    SeedThing { id: "ball", en: "Ball", hi: "गेंद", hi_latin: "Gend", emoji: "⚽", flies: false, category: Toy, note: Some("It is only thrown or kicked, and then it falls.") },
    SeedThing { id: "paper-boat", en: "Paper boat", hi: "कागज़ की नाव", hi_latin: "Kaagaz ki naav", emoji: "⛵", flies: false, category: Toy, note: Some("Floats on water, not in the air.") },
    SeedThing { id: "cricket-bat", en: "Cricket bat", hi: "बल्ला", hi_latin: "Balla", emoji: "🏏", flies: false, category: Toy, note: Some("The bat you play with, not the animal: it is only swung.") },
    SeedThing { id: "doll", en: "Doll", hi: "गुड़िया", hi_latin: "Gudiya", emoji: "🪆", flies: false, category: Toy, note: None },
    SeedThing { id: "teddy-bear", en: "Teddy bear", hi: "टेडी बियर", hi_latin: "Teddy bear", emoji: "🧸", flies: false, category: Toy, note: None },
    SeedThing { id: "water-gun", en: "Water gun", hi: "पिचकारी", hi_latin: "Pichkari", emoji: "🔫", flies: false, category: Toy, note: Some("It squirts water, but the pichkari itself stays in your hand.") },
    // Everyday objects
    SeedThing { id: "chair", en: "Chair", hi: "कुर्सी", hi_latin: "Kursi", emoji: "🪑", flies: false, category: Object, note: None },
    SeedThing { id: "umbrella", en: "Umbrella", hi: "छाता", hi_latin: "Chhata", emoji: "☂️", flies: false, category: Object, note: Some("It catches the wind but cannot stay up: it is held or it falls.") },
    SeedThing { id: "book", en: "Book", hi: "किताब", hi_latin: "Kitaab", emoji: "📖", flies: false, category: Object, note: None },
    SeedThing { id: "pencil", en: "Pencil", hi: "पेंसिल", hi_latin: "Pencil", emoji: "✏️", flies: false, category: Object, note: None },
    SeedThing { id: "shoe", en: "Shoe", hi: "जूता", hi_latin: "Joota", emoji: "👟", flies: false, category: Object, note: None },
    SeedThing { id: "phone", en: "Phone", hi: "फ़ोन", hi_latin: "Phone", emoji: "📱", flies: false, category: Object, note: None },
    SeedThing { id: "clock", en: "Clock", hi: "घड़ी", hi_latin: "Ghadi", emoji: "⏰", flies: false, category: Object, note: Some("Judged as the thing: time flies, the clock does not.") },
    SeedThing { id: "suitcase", en: "Suitcase", hi: "सूटकेस", hi_latin: "Suitcase", emoji: "🧳", flies: false, category: Object, note: Some("It rides inside the plane, and being carried is not flying.") },
    SeedThing { id: "letter", en: "Letter", hi: "चिट्ठी", hi_latin: "Chitthi", emoji: "✉️", flies: false, category: Object, note: Some("It may travel by plane, but only as something carried.") },
    SeedThing { id: "broom", en: "Broom", hi: "झाड़ू", hi_latin: "Jhaadu", emoji: "🧹", flies: false, category: Object, note: Some("A real broom only sweeps; it cannot fly by itself.") },
    SeedThing { id: "flyover", en: "Flyover", hi: "फ़्लाईओवर", hi_latin: "Flyover", emoji: "🌉", flies: false, category: Object, note: Some("Judged as the thing, not the name: a bridge that carries a road.") },
    SeedThing { id: "diya", en: "Diya", hi: "दीया", hi_latin: "Diya", emoji: "🪔", flies: false, category: Object, note: None },
    // Food
    SeedThing { id: "mango", en: "Mango", hi: "आम", hi_latin: "Aam", emoji: "🥭", flies: false, category: Food, note: None },
    SeedThing { id: "banana", en: "Banana", hi: "केला", hi_latin: "Kela", emoji: "🍌", flies: false, category: Food, note: None },
    SeedThing { id: "apple", en: "Apple", hi: "सेब", hi_latin: "Seb", emoji: "🍎", flies: false, category: Food, note: None },
    SeedThing { id: "watermelon", en: "Watermelon", hi: "तरबूज़", hi_latin: "Tarbooz", emoji: "🍉", flies: false, category: Food, note: None },
    SeedThing { id: "samosa", en: "Samosa", hi: "समोसा", hi_latin: "Samosa", emoji: "🥟", flies: false, category: Food, note: None },
    SeedThing { id: "roti", en: "Roti", hi: "रोटी", hi_latin: "Roti", emoji: "🫓", flies: false, category: Food, note: None },
    SeedThing { id: "laddoo", en: "Laddoo", hi: "लड्डू", hi_latin: "Laddoo", emoji: "🟠", flies: false, category: Food, note: None },
    SeedThing { id: "ice-cream", en: "Ice cream", hi: "आइसक्रीम", hi_latin: "Ice cream", emoji: "🍦", flies: false, category: Food, note: None },
    SeedThing { id: "egg", en: "Egg", hi: "अंडा", hi_latin: "Anda", emoji: "🥚", flies: false, category: Food, note: Some("Even a bird's egg cannot fly; it has to hatch first.") },
    // Nature
    SeedThing { id: "tree", en: "Tree", hi: "पेड़", hi_latin: "Ped", emoji: "🌳", flies: false, category: Nature, note: None },
    SeedThing { id: "flower", en: "Flower", hi: "फूल", hi_latin: "Phool", emoji: "🌸", flies: false, category: Nature, note: None },
    SeedThing { id: "mountain", en: "Mountain", hi: "पहाड़", hi_latin: "Pahaad", emoji: "⛰️", flies: false, category: Nature, note: None },
    SeedThing { id: "river", en: "River", hi: "नदी", hi_latin: "Nadi", emoji: "🏞️", flies: false, category: Nature, note: None },
    SeedThing { id: "sea", en: "Sea", hi: "समुद्र", hi_latin: "Samudra", emoji: "🌊", flies: false, category: Nature, note: None },
    SeedThing { id: "stone", en: "Stone", hi: "पत्थर", hi_latin: "Patthar", emoji: "🪨", flies: false, category: Nature, note: Some("It goes through the air only when thrown, and then it falls.") },
    SeedThing { id: "volcano", en: "Volcano", hi: "ज्वालामुखी", hi_latin: "Jwalamukhi", emoji: "🌋", flies: false, category: Nature, note: None },
    SeedThing { id: "mushroom", en: "Mushroom", hi: "कुकुरमुत्ता", hi_latin: "Kukurmutta", emoji: "🍄", flies: false, category: Nature, note: None },
    // Myth and story
    SeedThing { id: "dragon", en: "Dragon", hi: "ड्रैगन", hi_latin: "Dragon", emoji: "🐉", flies: true, category: Myth, note: Some("A story creature that flies on its wings in its stories.") },
    SeedThing { id: "garuda", en: "Garuda", hi: "गरुड़", hi_latin: "Garud", emoji: "🦅", flies: true, category: Myth, note: Some("Vishnu's great bird flies in the stories.") },
    SeedThing { id: "jatayu", en: "Jatayu", hi: "जटायु", hi_latin: "Jatayu", emoji: "🦅", flies: true, category: Myth, note: Some("The great vulture of the Ramayana flies in the story.") },
    SeedThing { id: "pushpak-vimaan", en: "Pushpak vimaan", hi: "पुष्पक विमान", hi_latin: "Pushpak vimaan", emoji: "🛕", flies: true, category: Myth, note: Some("The flying chariot of the Ramayana flies in the story.") },
    SeedThing { id: "pegasus", en: "Pegasus", hi: "पेगासस", hi_latin: "Pegasus", emoji: "🐎", flies: true, category: Myth, note: Some("The winged horse flies in its story.") },
    SeedThing { id: "magic-carpet", en: "Magic carpet", hi: "जादुई कालीन", hi_latin: "Jaadui kaaleen", emoji: "🪄", flies: true, category: Myth, note: Some("It flies through the sky in its stories.") },
    SeedThing { id: "fairy", en: "Fairy", hi: "परी", hi_latin: "Pari", emoji: "🧚", flies: true, category: Myth, note: Some("Has wings and flies in her stories.") },
    SeedThing { id: "flying-saucer", en: "Flying saucer", hi: "उड़न तश्तरी", hi_latin: "Udan tashtari", emoji: "🛸", flies: true, category: Myth, note: Some("The spaceship from the stories flies in them.") },
    SeedThing { id: "unicorn", en: "Unicorn", hi: "यूनिकॉर्न", hi_latin: "Unicorn", emoji: "🦄", flies: false, category: Myth, note: Some("A horse with one horn and no wings: it does not fly in its story.") },
    SeedThing { id: "mermaid", en: "Mermaid", hi: "जलपरी", hi_latin: "Jalpari", emoji: "🧜‍♀️", flies: false, category: Myth, note: Some("She swims with a fish tail and has no wings.") },
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
}
