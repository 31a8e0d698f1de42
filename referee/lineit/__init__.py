"""Line-it (Gigamic): lines of number cards, bets and jackpots."""
