"""The source of the Dutch and German catalogs: ``python -m ui.locale.translations`` rewrites
``<lang>/LC_MESSAGES/robo_companion.po`` from this table (the .po files are committed; the .mo
files are compiled from them). English is the msgid itself."""

from __future__ import annotations

# msgid: (nl, de)
T: dict[str, tuple[str, str]] = {
    "Games cannot be saved: {problem}": (
        "Spellen kunnen niet worden bewaard: {problem}",
        "Spiele können nicht gespeichert werden: {problem}",
    ),
    "The table could not start: {problem}": (
        "De tafel kon niet starten: {problem}",
        "Der Tisch konnte nicht starten: {problem}",
    ),
    "The siren board or camera failed to start: {problem}": (
        "Het sirenebord of de camera startte niet: {problem}",
        "Sirenenbrett oder Kamera starteten nicht: {problem}",
    ),
    "The table is still starting. One moment.": (
        "De tafel start nog. Een ogenblik.",
        "Der Tisch startet noch. Einen Moment.",
    ),
    "Demo: the camera now sees {what}": (
        "Demo: de camera ziet nu {what}",
        "Demo: die Kamera sieht jetzt {what}",
    ),
    "the start card": ("de startkaart", "die Startkarte"),
    "Demo: lay it down": ("Demo: neerleggen", "Demo: hinlegen"),
    "cubes": ("blokjes", "Energiewürfel"),
    "turn": ("beurt", "Zug"),
    "Demo: keys 1 to 6 press the sirens; 'Demo: lay it down' (or S) puts what a player would "
    "lay under the camera.": (
        "Demo: toetsen 1 tot 6 drukken op de sirenes; 'Demo: neerleggen' (of S) legt wat een "
        "speler zou leggen onder de camera.",
        "Demo: die Tasten 1 bis 6 drücken die Sirenen; 'Demo: hinlegen' (oder S) legt, was ein "
        "Spieler hinlegen würde, unter die Kamera.",
    ),
    "a card": ("een kaart", "eine Karte"),
    "the robots": ("de robots", "die Roboter"),
    "The record could not be written: {problem}": (
        "Het verslag kon niet worden geschreven: {problem}",
        "Das Protokoll konnte nicht geschrieben werden: {problem}",
    ),
    "Saved the record to {path}": ("Verslag bewaard in {path}", "Protokoll gespeichert in {path}"),
    "Card read": ("Kaart gelezen", "Karte gelesen"),
    "EUREKA! {player}": ("EUREKA! {player}", "HEUREKA! {player}"),
    "No simulated siren board is running.": (
        "Er draait geen gesimuleerd sirenebord.",
        "Es läuft kein simuliertes Sirenenbrett.",
    ),
    "Something went wrong: {problem}": (
        "Er ging iets mis: {problem}",
        "Etwas ist schiefgegangen: {problem}",
    ),
    "{player} only: enter the order card (others look away)": (
        "Alleen {player}: voer de opdrachtkaart in (anderen kijken weg)",
        "Nur {player}: Auftragskarte eingeben (die anderen schauen weg)",
    ),
    "Board card {slot}": ("Bordkaart {slot}", "Spielplankarte {slot}"),
    "{player} only: enter the card {buyer} handed in (others look away)": (
        "Alleen {player}: voer de kaart van {buyer} in (anderen kijken weg)",
        "Nur {player}: Karte von {buyer} eingeben (die anderen schauen weg)",
    ),
    "{player}'s robot": ("Robot van {player}", "Roboter von {player}"),
    "{player} rolled {roll}": ("{player} gooide {roll}", "{player} hat {roll} gewürfelt"),
    "{player}'s roll": ("Worp van {player}", "Wurf von {player}"),
    "The start card": ("De startkaart", "Die Startkarte"),
    "Which card goes on {cell}?": ("Welke kaart komt op {cell}?", "Welche Karte kommt auf {cell}?"),
    "Correct the reading": ("Verbeter wat gelezen is", "Lesung korrigieren"),
    "rows": ("rijen", "Reihen"),
    "columns": ("kolommen", "Spalten"),
    "line {k} from the lowest: {mine} against {theirs}": (
        "lijn {k} van onderen: {mine} tegen {theirs}",
        "Linie {k} von unten: {mine} gegen {theirs}",
    ),
    "red": ("rood", "rot"),
    "green": ("groen", "grün"),
    "blue": ("blauw", "blau"),
    "yellow": ("geel", "gelb"),
    "Export the record": ("Verslag exporteren", "Protokoll exportieren"),
    "Back to the start": ("Terug naar het begin", "Zurück zum Anfang"),
    "Undo": ("Ongedaan", "Rückgängig"),
    "Menu": ("Menu", "Menü"),
    "tile {n}": ("tegel {n}", "Plättchen {n}"),
    "EUREKA": ("EUREKA", "HEUREKA"),
    "siren used": ("sirene gebruikt", "Sirene verbraucht"),
    "{cubes} cubes": ("{cubes} blokjes", "{cubes} Energiewürfel"),
    "rolled {roll}": ("gooide {roll}", "würfelte {roll}"),
    "Robo Companion": ("Robo Companion", "Robo Companion"),
    "Continue the game in progress": ("Verder met het lopende spel", "Laufendes Spiel fortsetzen"),
    "New game of Robo Factory": ("Nieuw spel Robo Factory", "Neues Spiel Robo Factory"),
    "New game of Robot Master": ("Nieuw spel Robot Master", "Neues Spiel Robot Master"),
    "Sound: on": ("Geluid: aan", "Ton: an"),
    "Sound: off": ("Geluid: uit", "Ton: aus"),
    "Past games": ("Eerdere spellen", "Frühere Spiele"),
    "Getting the table ready: camera and siren board...": (
        "De tafel wordt klaargemaakt: camera en sirenebord...",
        "Der Tisch wird vorbereitet: Kamera und Sirenenbrett...",
    ),
    "No games yet.": ("Nog geen spellen.", "Noch keine Spiele."),
    "Export": ("Exporteren", "Exportieren"),
    "Highlighted cells (+) take the next card. Scores: rows at the right, columns below.": (
        "Gemarkeerde vakken (+) nemen de volgende kaart. Scores: rijen rechts, kolommen onder.",
        "Markierte Felder (+) nehmen die nächste Karte. Punkte: Reihen rechts, Spalten unten.",
    ),
    "Cancel": ("Annuleren", "Abbrechen"),
    "{n} left": ("nog {n}", "noch {n}"),
    "OK": ("OK", "OK"),
    "Hold here": ("Hier vasthouden", "Hier gedrückt halten"),
    "Hold the button at least once.": (
        "Houd de knop minstens één keer vast.",
        "Halte die Taste mindestens einmal gedrückt.",
    ),
    "Correct it": ("Verbeteren", "Korrigieren"),
    "Back": ("Terug", "Zurück"),
    "Start the game": ("Start het spel", "Spiel starten"),
    "Seat {n}": ("Plaats {n}", "Platz {n}"),
    "Rows": ("Rijen", "Reihen"),
    "Columns": ("Kolommen", "Spalten"),
    "First Customer": ("Eerste klant", "Erster Kunde"),
    "Customer?": ("Klant?", "Kunde?"),
    "Move up": ("Omhoog", "Nach oben"),
    "player": ("speler", "Spieler"),
    "When the lead is tied": ("Bij gelijke stand aan kop", "Bei Gleichstand an der Spitze"),
    "Share the win": ("Winst delen", "Sieg teilen"),
    "Extra round": ("Extra ronde", "Extrarunde"),
    "Wrong robots in the 2nd attempt pay": (
        "Foute robots in de 2e poging betalen",
        "Falsche Roboter im 2. Versuch zahlen",
    ),
    "Always (rule book)": ("Altijd (spelregels)", "Immer (Regelheft)"),
    "If no one is right (FAQ)": (
        "Als niemand gelijk heeft (FAQ)",
        "Wenn niemand richtig liegt (FAQ)",
    ),
    "Who lays the first card": ("Wie legt de eerste kaart", "Wer legt die erste Karte"),
    "Frame": ("Raster", "Raster"),
    "Fixed (start in the centre)": ("Vast (start in het midden)", "Fest (Start in der Mitte)"),
    "Floating": ("Vrij", "Frei"),
    "Player {n}": ("Speler {n}", "Spieler {n}"),
    "The camera is not sure about the card. {customer}: check it privately": (
        "De camera twijfelt over de kaart. {customer}: controleer het in het geheim",
        "Die Kamera ist sich bei der Karte unsicher. {customer}: bitte geheim prüfen",
    ),
    "{customer}: check privately": ("{customer}: geheim controleren", "{customer}: geheim prüfen"),
    "Ignore": ("Negeren", "Ignorieren"),
    "Is this right? {what}": ("Klopt dit? {what}", "Stimmt das? {what}"),
    "Yes, right": ("Ja, klopt", "Ja, stimmt"),
    "board card {robot}": ("bordkaart {robot}", "Spielplankarte {robot}"),
    "{player}'s robot: {robot}": ("robot van {player}: {robot}", "Roboter von {player}: {robot}"),
    "start card {value}": ("startkaart {value}", "Startkarte {value}"),
    "card {value} on {cell}": ("kaart {value} op {cell}", "Karte {value} auf {cell}"),
    "The order card": ("De opdrachtkaart", "Die Auftragskarte"),
    "The board cards": ("De bordkaarten", "Die Spielplankarten"),
    "Buying data tiles": ("Datategels kopen", "Datenplättchen kaufen"),
    "Production": ("Productie", "Produktion"),
    "The reveal": ("Onthulling", "Aufdecken"),
    "Feedback tiles": ("Terugmeldtegels", "Rückmeldeplättchen"),
    "The ledger": ("De afrekening", "Die Abrechnung"),
    "Game over": ("Einde van het spel", "Spielende"),
    "Turn {n} of {total} · Customer: {customer}": (
        "Beurt {n} van {total} · Klant: {customer}",
        "Zug {n} von {total} · Kunde: {customer}",
    ),
    "attempt {n} of 2": ("poging {n} van 2", "Versuch {n} von 2"),
    "before the second attempt": ("voor de tweede poging", "vor dem zweiten Versuch"),
    "The camera reads the card privately: nothing it sees is shown.": (
        "De camera leest de kaart in het geheim: niets van wat ze ziet wordt getoond.",
        "Die Kamera liest die Karte geheim: nichts von dem, was sie sieht, wird gezeigt.",
    ),
    "{customer}: enter the card by touch": (
        "{customer}: voer de kaart in met aanraken",
        "{customer}: Karte per Berührung eingeben",
    ),
    "Enter board card {slot} by touch": (
        "Bordkaart {slot} invoeren met aanraken",
        "Spielplankarte {slot} per Berührung eingeben",
    ),
    "Hold each board card under the camera, one at a time.": (
        "Houd elke bordkaart onder de camera, een voor een.",
        "Halte jede Spielplankarte unter die Kamera, eine nach der anderen.",
    ),
    "{buyer} buys: {customer}, show the handed card to the camera, privately": (
        "{buyer} koopt: {customer}, toon de gekregen kaart in het geheim aan de camera",
        "{buyer} kauft: {customer}, zeige die erhaltene Karte geheim der Kamera",
    ),
    "Cancel the purchase": ("Aankoop annuleren", "Kauf abbrechen"),
    "Start production": ("Start de productie", "Produktion starten"),
    "Reveal the robots": ("Robots onthullen", "Roboter aufdecken"),
    "Settle the reveal": ("Onthulling afrekenen", "Aufdecken abrechnen"),
    "Waiting for: {names}": ("Wachten op: {names}", "Warten auf: {names}"),
    "Start the second attempt": ("Start de tweede poging", "Zweiten Versuch starten"),
    "Done: next Customer {customer}": (
        "Klaar: volgende klant {customer}",
        "Fertig: nächster Kunde {customer}",
    ),
    "See the results": ("Bekijk de uitslag", "Ergebnis ansehen"),
    "Customer": ("Klant", "Kunde"),
    "bought a data tile": ("kocht een datategel", "hat ein Datenplättchen gekauft"),
    "no cubes to buy with": ("geen blokjes om te kopen", "keine Energiewürfel zum Kaufen"),
    "Buy a tile": ("Tegel kopen", "Plättchen kaufen"),
    "Eureka called": ("Eureka geroepen", "Heureka gerufen"),
    "building": ("bouwt", "baut"),
    "Eureka!": ("Eureka!", "Heureka!"),
    "Set robot": ("Robot invoeren", "Roboter eingeben"),
    "Fix robot": ("Robot verbeteren", "Roboter korrigieren"),
    "correct": ("goed", "richtig"),
    "wrong": ("fout", "falsch"),
    "Roll the die": ("Gooi de dobbelsteen", "Würfeln"),
    "Enter a roll": ("Worp invoeren", "Wurf eingeben"),
    "has seen the tile": ("heeft de tegel gezien", "hat das Plättchen gesehen"),
    "waiting": ("wacht", "wartet"),
    "{player}: see your tile": ("{player}: bekijk je tegel", "{player}: dein Plättchen"),
    "The order was {robot}": ("De opdracht was {robot}", "Der Auftrag war {robot}"),
    "{player} only": ("Alleen {player}", "Nur {player}"),
    "Hold the button to check the order card read. Others look away.": (
        "Houd de knop vast om de gelezen opdrachtkaart te controleren. Anderen kijken weg.",
        "Halte die Taste gedrückt, um die gelesene Auftragskarte zu prüfen. Die anderen "
        "schauen weg.",
    ),
    "Done": ("Klaar", "Fertig"),
    "Hold the button to see which data tile to give {buyer}.": (
        "Houd de knop vast om te zien welke datategel {buyer} krijgt.",
        "Halte die Taste gedrückt, um zu sehen, welches Datenplättchen {buyer} bekommt.",
    ),
    "Done: tile handed over": ("Klaar: tegel gegeven", "Fertig: Plättchen übergeben"),
    "Hold the button to see your feedback tile: how many parts of your robot match.": (
        "Houd de knop vast voor je terugmeldtegel: hoeveel delen van je robot kloppen.",
        "Halte die Taste gedrückt für dein Rückmeldeplättchen: wie viele Teile deines Roboters "
        "stimmen.",
    ),
    "Done: I have seen it": ("Klaar: ik heb het gezien", "Fertig: ich habe es gesehen"),
    "The camera was not sure. Hold the button to see what it read.": (
        "De camera twijfelde. Houd de knop vast om te zien wat ze las.",
        "Die Kamera war unsicher. Halte die Taste gedrückt, um zu sehen, was sie las.",
    ),
    "It is right": ("Het klopt", "Es stimmt"),
    "Head": ("Hoofd", "Kopf"),
    "Torso": ("Romp", "Rumpf"),
    "Legs": ("Benen", "Beine"),
    "Robot Master: the start card": ("Robot Master: de startkaart", "Robot Master: die Startkarte"),
    "Enter the start card by touch": (
        "Startkaart invoeren met aanraken",
        "Startkarte per Berührung eingeben",
    ),
    "{player} to move": ("{player} is aan zet", "{player} ist am Zug"),
    "Robot Master: game over": ("Robot Master: einde van het spel", "Robot Master: Spielende"),
    "{rows} owns the rows · {columns} owns the columns": (
        "{rows} heeft de rijen · {columns} heeft de kolommen",
        "{rows} hat die Reihen · {columns} hat die Spalten",
    ),
    "Lay the start card first.": ("Leg eerst de startkaart.", "Lege zuerst die Startkarte."),
    "The game is over: all 25 cells are filled.": (
        "Het spel is uit: alle 25 vakken zijn vol.",
        "Das Spiel ist aus: alle 25 Felder sind belegt.",
    ),
    "{cell} already holds a card. Choose a highlighted cell.": (
        "Op {cell} ligt al een kaart. Kies een gemarkeerd vak.",
        "Auf {cell} liegt schon eine Karte. Wähle ein markiertes Feld.",
    ),
    "{cell} touches no card. A card must touch another edge to edge.": (
        "{cell} raakt geen kaart. Een kaart moet een andere met een zijde raken.",
        "{cell} berührt keine Karte. Eine Karte muss eine andere Kante an Kante berühren.",
    ),
    "{cell} is outside the 5x5 frame. Choose a highlighted cell.": (
        "{cell} ligt buiten het 5x5-raster. Kies een gemarkeerd vak.",
        "{cell} liegt außerhalb des 5x5-Rasters. Wähle ein markiertes Feld.",
    ),
    "The game was stopped": ("Het spel is gestopt", "Das Spiel wurde beendet"),
    "{player}: {cubes} cubes": ("{player}: {cubes} blokjes", "{player}: {cubes} Energiewürfel"),
    "Robo Factory: the results": ("Robo Factory: de uitslag", "Robo Factory: das Ergebnis"),
    "Robot Master: the results": ("Robot Master: de uitslag", "Robot Master: das Ergebnis"),
    "{player} (rows), sorted: {scores}": (
        "{player} (rijen), gesorteerd: {scores}",
        "{player} (Reihen), sortiert: {scores}",
    ),
    "{player} (columns), sorted: {scores}": (
        "{player} (kolommen), gesorteerd: {scores}",
        "{player} (Spalten), sortiert: {scores}",
    ),
    "Robo Factory needs 2 to 6 players.": (
        "Robo Factory heeft 2 tot 6 spelers nodig.",
        "Robo Factory braucht 2 bis 6 Spieler.",
    ),
    "Every player needs a name.": (
        "Elke speler heeft een naam nodig.",
        "Jeder Spieler braucht einen Namen.",
    ),
    "Two players have the same name.": (
        "Twee spelers hebben dezelfde naam.",
        "Zwei Spieler haben denselben Namen.",
    ),
    "Both players need a name.": (
        "Beide spelers hebben een naam nodig.",
        "Beide Spieler brauchen einen Namen.",
    ),
    "The two players need different names.": (
        "De twee spelers hebben verschillende namen nodig.",
        "Die beiden Spieler brauchen verschiedene Namen.",
    ),
    "Robo Factory": ("Robo Factory", "Robo Factory"),
    "Robot Master": ("Robot Master", "Robot Master"),
    "in progress": ("bezig", "läuft"),
    "finished": ("afgelopen", "beendet"),
    "stopped": ("gestopt", "abgebrochen"),
    "{customer}: show the order card to the camera, privately": (
        "{customer}: toon de opdrachtkaart in het geheim aan de camera",
        "{customer}: zeige die Auftragskarte geheim der Kamera",
    ),
    "{customer}: lay board card {slot} of 3 face-up": (
        "{customer}: leg bordkaart {slot} van 3 open neer",
        "{customer}: lege Spielplankarte {slot} von 3 offen aus",
    ),
    "{customer}: put data tile {tile} beside board card {slot}": (
        "{customer}: leg datategel {tile} naast bordkaart {slot}",
        "{customer}: lege Datenplättchen {tile} neben Spielplankarte {slot}",
    ),
    "Manufacturers may buy one data tile each (1 cube to {customer})": (
        "Fabrikanten mogen elk één datategel kopen (1 blokje aan {customer})",
        "Hersteller dürfen je ein Datenplättchen kaufen (1 Energiewürfel an {customer})",
    ),
    "Manufacturers: build your robots. Press your siren to call Eureka": (
        "Fabrikanten: bouw je robots. Druk op je sirene om Eureka te roepen",
        "Hersteller: baut eure Roboter. Drückt eure Sirene für Heureka",
    ),
    "Manufacturers: build again (second attempt). Press your siren to call Eureka": (
        "Fabrikanten: bouw opnieuw (tweede poging). Druk op je sirene om Eureka te roepen",
        "Hersteller: baut neu (zweiter Versuch). Drückt eure Sirene für Heureka",
    ),
    "Everyone: turn your part tiles over": (
        "Iedereen: draai je onderdeeltegels om",
        "Alle: dreht eure Teileplättchen um",
    ),
    "{player}: roll the die for Eureka": (
        "{player}: gooi de dobbelsteen voor Eureka",
        "{player}: würfle für Heureka",
    ),
    "{player}: hold to see your feedback tile, privately": (
        "{player}: houd vast om je terugmeldtegel in het geheim te zien",
        "{player}: gedrückt halten, um dein Rückmeldeplättchen geheim zu sehen",
    ),
    "{player} takes {amount} cubes from the bank": (
        "{player} neemt {amount} blokjes van de bank",
        "{player} nimmt {amount} Energiewürfel von der Bank",
    ),
    "{player} pays {amount} to the bank": (
        "{player} betaalt {amount} aan de bank",
        "{player} zahlt {amount} an die Bank",
    ),
    "{player} pays {amount} to {payee}": (
        "{player} betaalt {amount} aan {payee}",
        "{player} zahlt {amount} an {payee}",
    ),
    "Next Customer: {customer}": ("Volgende klant: {customer}", "Nächster Kunde: {customer}"),
    "{names} wins with {cubes} cubes": (
        "{names} wint met {cubes} blokjes",
        "{names} gewinnt mit {cubes} Energiewürfeln",
    ),
    "{names} share the win with {cubes} cubes each": (
        "{names} delen de winst met elk {cubes} blokjes",
        "{names} teilen sich den Sieg mit je {cubes} Energiewürfeln",
    ),
    "The lead is tied: an extra round begins": (
        "Gelijke stand aan kop: een extra ronde begint",
        "Gleichstand an der Spitze: eine Extrarunde beginnt",
    ),
    "Lay the start card face-up and read it": (
        "Leg de startkaart open neer en lees haar in",
        "Lege die Startkarte offen aus und lies sie ein",
    ),
    "{player} ({side}): place a card": (
        "{player} ({side}): leg een kaart",
        "{player} ({side}): lege eine Karte",
    ),
    "{player} ({side}) wins: {detail}": (
        "{player} ({side}) wint: {detail}",
        "{player} ({side}) gewinnt: {detail}",
    ),
    "A draw: every line score is equal": (
        "Gelijkspel: alle lijnscores zijn gelijk",
        "Unentschieden: alle Linienwerte sind gleich",
    ),
    # the camera's set-up (guided calibration) screen
    (
        "The camera's stored set-up cannot be used (made by another version, or "
        "unreadable): it reads with its defaults. Tap 'Set up the camera'."
    ): (
        (
            "De opgeslagen camera-instelling is onbruikbaar (van een andere versie, of "
            "onleesbaar): de camera leest met haar standaardwaarden. Tik op 'Camera "
            "instellen'."
        ),
        (
            "Die gespeicherte Kamera-Einrichtung ist nicht verwendbar (von einer anderen "
            "Version oder unlesbar): die Kamera liest mit ihren Grundwerten. Tippe auf "
            "„Kamera einrichten“."
        ),
    ),
    (
        "The camera has not learnt your components yet: Robot Master cards are asked by "
        "touch. Tap 'Set up the camera'."
    ): (
        (
            "De camera kent jullie spelmateriaal nog niet: Robot Master-kaarten worden "
            "via het scherm gevraagd. Tik op 'Camera instellen'."
        ),
        (
            "Die Kamera kennt euer Spielmaterial noch nicht: Robot-Master-Karten werden "
            "am Bildschirm abgefragt. Tippe auf „Kamera einrichten“."
        ),
    ),
    "There is no camera to set up.": (
        "Er is geen camera om in te stellen.",
        "Es gibt keine Kamera zum Einrichten.",
    ),
    "The camera is set up.": (
        "De camera is ingesteld.",
        "Die Kamera ist eingerichtet.",
    ),
    "No seat shows all three tiles. Check the light and try again.": (
        (
            "Bij geen enkele plaats zijn alle drie de tegels te zien. Controleer het "
            "licht en probeer opnieuw."
        ),
        (
            "An keinem Platz sind alle drei Plättchen zu sehen. Prüfe das Licht und "
            "versuche es noch einmal."
        ),
    ),
    "The card is not in view. Hold it flat, facing the camera.": (
        "De kaart is niet te zien. Houd haar vlak, naar de camera gericht.",
        "Die Karte ist nicht zu sehen. Halte sie flach, zur Kamera gewandt.",
    ),
    "The play area's corner markers are not all in view.": (
        "Niet alle hoekmarkeringen van het speelveld zijn te zien.",
        "Nicht alle Eckmarken der Spielfläche sind zu sehen.",
    ),
    "Lay Robot Master cards in the play area as shown, every card on its own cell.": (
        "Leg Robot Master-kaarten in het speelveld zoals getoond, elke kaart op een eigen vak.",
        (
            "Lege Robot-Master-Karten wie gezeigt auf die Spielfläche, jede Karte auf ein"
            " eigenes Feld."
        ),
    ),
    (
        "Every player: lay the head tile on the {head} lane, the torso tile on the "
        "{torso} lane and the legs tile on the {legs} lane."
    ): (
        (
            "Iedereen legt: de hoofdtegel op {head}, de romptegel op {torso} en de "
            "benentegel op {legs}."
        ),
        (
            "Alle legen: das Kopfplättchen auf {head}, das Rumpfplättchen auf {torso} und"
            " das Beinplättchen auf {legs}."
        ),
    ),
    "Hold this order card up to the camera, flat and still.": (
        "Houd deze opdrachtkaart voor de camera, vlak en stil.",
        "Halte diese Auftragskarte flach und ruhig vor die Kamera.",
    ),
    "Learnt from {n} pictures of your components, and kept.": (
        "Geleerd van {n} foto's van jullie spelmateriaal, en bewaard.",
        "Aus {n} Bildern eures Spielmaterials gelernt und gespeichert.",
    ),
    "Your robot cards could not be learnt, so order cards are asked by touch. "
    "Set up the camera again, holding each card flat in good light.": (
        "Jullie robotkaarten konden niet worden geleerd, dus opdrachtkaarten worden via het "
        "scherm gevraagd. Stel de camera opnieuw in en houd elke kaart plat in goed licht.",
        "Eure Roboterkarten konnten nicht gelernt werden, daher werden Auftragskarten per "
        "Berührung abgefragt. Richtet die Kamera erneut ein und haltet jede Karte flach in "
        "gutem Licht.",
    ),
    "The camera set-up failed: {problem}": (
        "Het instellen van de camera mislukte: {problem}",
        "Die Kamera-Einrichtung ist fehlgeschlagen: {problem}",
    ),
    "Nothing was learnt: {problem}": (
        "Er is niets geleerd: {problem}",
        "Es wurde nichts gelernt: {problem}",
    ),
    "Learning from the pictures. This can take a minute...": (
        "De camera leert van de foto's. Dat kan een minuut duren...",
        "Die Kamera lernt aus den Bildern. Das kann eine Minute dauern...",
    ),
    "Pictures kept: {n}": (
        "Bewaarde foto's: {n}",
        "Behaltene Bilder: {n}",
    ),
    "The camera is calibrated": (
        "De camera is ingesteld",
        "Die Kamera ist eingerichtet",
    ),
    "Readings now use what was learnt from your components.": (
        "De camera leest nu met wat ze van jullie spelmateriaal geleerd heeft.",
        "Die Kamera liest jetzt mit dem, was sie von eurem Spielmaterial gelernt hat.",
    ),
    "Looking at the picture...": (
        "De foto wordt bekeken...",
        "Das Bild wird geprüft...",
    ),
    "No pictures were taken yet.": (
        "Er zijn nog geen foto's genomen.",
        "Es wurden noch keine Bilder aufgenommen.",
    ),
    "Picture {n} kept.": (
        "Foto {n} bewaard.",
        "Bild {n} behalten.",
    ),
    "Set up the camera: all steps done": (
        "Camera instellen: alle stappen gedaan",
        "Kamera einrichten: alle Schritte erledigt",
    ),
    "Learn from the {n} pictures kept, or go back without changing anything.": (
        "Leer van de {n} bewaarde foto's, of ga terug zonder iets te veranderen.",
        "Aus den {n} behaltenen Bildern lernen, oder zurück, ohne etwas zu ändern.",
    ),
    "Set up the camera: step {k} of {n}": (
        "Camera instellen: stap {k} van {n}",
        "Kamera einrichten: Schritt {k} von {n}",
    ),
    "What the camera sees": (
        "Wat de camera ziet",
        "Was die Kamera sieht",
    ),
    "Skip this step": (
        "Stap overslaan",
        "Schritt überspringen",
    ),
    "Take the picture": (
        "Foto nemen",
        "Bild aufnehmen",
    ),
    "Learn and keep": (
        "Leren en bewaren",
        "Lernen und speichern",
    ),
    "Set up the camera": (
        "Camera instellen",
        "Kamera einrichten",
    ),
}


def write() -> None:
    from pathlib import Path

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    from ui.i18n import DOMAIN, LOCALE_DIR, extract_messages

    used = extract_messages()
    for index, lang in enumerate(("nl", "de")):
        catalog = Catalog(locale=lang, domain=DOMAIN, project="robo-companion", fuzzy=False)
        for msgid in used:
            if msgid in T:
                catalog.add(msgid, T[msgid][index])
        path = Path(LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=100, omit_header=False, sort_output=False)


if __name__ == "__main__":
    write()
