"""What is learned about one table and one camera: table plane, board corners and grid, seats,
colour reference, an enrolled deck; saved as profile files and reused."""
