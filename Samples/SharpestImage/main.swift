// Apple's "Finding the Sharpest Image in a Sequence of Captured Images", with Focal: a burst of
// photos in, the ranked list out, each photo's Laplacian written beside it.
//
//   swift run SharpestImage OUTPUT_FOLDER [PHOTO ...]
// With no photos it renders a burst of its own: one page, photographed with more or less blur.
import Focal
import FocalSynthetic

@main
struct SharpestImage {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let folder = arguments.first else {
            print("usage: SharpestImage OUTPUT_FOLDER [PHOTO ...]")
            return
        }
        do {
            var burst: [(name: String, frame: Frame)] = []
            if arguments.count > 1 {
                for path in arguments.dropFirst() { burst.append((path, try Frame(contentsOf: path).oriented())) }
            } else {
                let table = try SyntheticBackground.wood.render(width: 960, height: 540, seed: 7)
                let page = try SyntheticPage(width: 425, height: 550, seed: 7)
                let corners = SyntheticScene.corners(
                    frameWidth: 960, frameHeight: 540, center: Point(x: 480, y: 270), fill: 0.85, rotation: 6)
                for (index, sigma) in [1.8, 0.6, 3.0, 0.0, 1.2].enumerated() {
                    let shot = try SyntheticScene(
                        background: table, page: page, corners: corners, blur: .init(sigma: sigma), noise: 2,
                        seed: UInt64(index)
                    ).frame
                    burst.append(("shot-\(index + 1) (blur \(sigma))", shot))
                }
            }
            // Rank the burst (noise-resistant, since bursts are often taken in low light).
            let ranking = try Sharpness.rank(burst.map(\.frame), options: .noiseResistant)
            for (place, entry) in ranking.enumerated() {
                let photo = burst[entry.index]
                print("\(place + 1). \(photo.name)  variance \(Int(entry.score.variance))")
                let stem = "\(folder)/\(place + 1)"
                try photo.frame.write(to: stem + "-photo.jpg")
                try Sharpness.laplacianImage(of: photo.frame).write(to: stem + "-laplacian.png")
            }
        } catch {
            print("SharpestImage: \(error)")
        }
    }
}
