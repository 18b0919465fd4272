/* Intentionally empty: OpenCV is C++ and reaches Swift only through CFocal. */
