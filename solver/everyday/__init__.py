"""Everyday-word dictionaries: a list cut by how common its words are (wordfreq's Zipf
scale), previewed and saved from the admin."""
