<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Post</title></head><body><p>A stand-in for a Facebook post.</p></body></html>
