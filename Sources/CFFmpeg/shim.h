/* Intentionally empty: libav reaches Swift only through CFocal. */
